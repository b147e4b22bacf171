// Shared by the command tests: one sandbox per file, idm run in process with credentials in the
// environment (no profile needed), and the requests the sandbox received.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FaultSpec, RecordedRequest, Sandbox, SandboxOptions } from '../../src/sandbox/types.js';
import { credentialsEnv, runInProcess, tempConfigDir, type InProcessOptions, type RunResult } from './cli.js';
import { recordSandboxSecrets } from './sandbox.js';
import { TEST_DELIVERY_TIMEOUT_MS } from './timeouts.js';

export interface Harness {
  sandbox: Sandbox;
  configDir: string;
  /** Runs idm in process as `client` (admin by default) against the sandbox. */
  idm(args: readonly string[], options?: InProcessOptions & { client?: 'admin' | 'reader' }): Promise<RunResult>;
  /** Management requests (not token requests) received since `mark()`. */
  calls(method?: string): Array<RecordedRequest & { json: unknown }>;
  /** Every request (token ones too) received since `mark()`. */
  received(): RecordedRequest[];
  mark(): void;
  close(): Promise<void>;
}

export async function startHarness(options: SandboxOptions = {}): Promise<Harness> {
  const { startSandbox } = await import('../../src/sandbox/index.js');
  const sandbox = await startSandbox({ port: 0, deliveryTimeoutMs: TEST_DELIVERY_TIMEOUT_MS, ...options });
  recordSandboxSecrets(sandbox, options.seed);
  const { dir: configDir, cleanup } = tempConfigDir();
  let from = 0;
  return {
    sandbox,
    configDir,
    idm(args, options = {}) {
      return runInProcess(args, { ...options, configDir, env: { ...credentialsEnv(sandbox, options.client), ...options.env } });
    },
    calls(method) {
      return sandbox.requests
        .slice(from)
        .filter((request) => request.path.startsWith('/api/v2/') && (method === undefined || request.method === method))
        .map((request) => ({ ...request, json: request.body ? JSON.parse(request.body) : undefined }));
    },
    received() {
      return sandbox.requests.slice(from);
    },
    mark() {
      from = sandbox.requests.length;
    },
    async close() {
      await sandbox.close();
      cleanup();
    },
  };
}

/** The environment that makes idm behave as at a terminal while its output is captured by a pipe. */
export const TTY_OUT = { IDM_FORCE_TTY: 'stdout', NO_COLOR: '1' };

/** A seed with `count` fresh google-apps connections (con_gapps..01, ...), one already configured, one unsupported. */
export function connectionsSeed(count: number) {
  return {
    connections: [
      ...Array.from({ length: count }, (_, i) => ({ id: gappsId(i + 1), name: `google-${i + 1}`, strategy: 'google-apps' })),
      { id: 'con_takenTaken000001', name: 'google-taken', strategy: 'google-apps', provisioning: {} },
      { id: 'con_database00000001', name: 'users-database', strategy: 'platform' },
    ],
  };
}

export function gappsId(n: number): string {
  return `con_gapps${String(n).padStart(11, '0')}`;
}

/**
 * Every token cached in `configDir` made `ms` older (6 minutes by default): past the 5 minutes after
 * which a 403 for a missing scope drops it (a token minted before a new grant), for the tests that
 * check which 403s keep it.
 */
export function ageCachedTokens(configDir: string, ms = 6 * 60_000): void {
  const tokens = join(configDir, 'tokens');
  for (const name of readdirSync(tokens).filter((file) => file.endsWith('.json'))) {
    const path = join(tokens, name);
    writeFileSync(path, JSON.stringify({ ...JSON.parse(readFileSync(path, 'utf8')), obtainedAt: Date.now() - ms }));
  }
}

/** A sandbox fault: the service's 403 to a token without `scope`, once, in its words (wire-facts). */
export function missingScope(path: string, method: string | undefined, scope: string): FaultSpec {
  const body = JSON.stringify({ statusCode: 403, error: 'Forbidden', message: `Insufficient scope; expected any of: ${scope}.`, errorCode: 'insufficient_scope' });
  return { path, ...(method ? { method } : {}), kind: 'status', status: 403, count: 1, headers: { 'content-type': 'application/json; charset=utf-8' }, body };
}
