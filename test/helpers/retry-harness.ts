// Shared by the end-to-end retry tests: one sandbox per file with the demo streams and a few fresh
// google-apps connections, the built idm as its admin client, and the statuses the sandbox recorded.
import { afterAll, beforeAll, beforeEach } from 'vitest';
import { DEFAULT_SEED } from '../../src/sandbox/index.js';
import { credentialsEnv, runInProcess, tempConfigDir, type RunResult } from './cli.js';
import { connectionsSeed, startHarness, type Harness } from './harness.js';

export const INBOX = 'est_demoInboxBearer0000000';

/** Starts the harness for the file; faults are cleared and the request log marked before each test. */
export function useHarness(): () => Harness {
  let h: Harness | undefined;
  beforeAll(async () => {
    h = await startHarness({ seed: { streams: DEFAULT_SEED.streams, connections: connectionsSeed(4).connections } });
  });
  afterAll(() => h?.close());
  beforeEach(() => {
    h!.sandbox.clearFaults();
    h!.mark();
  });
  return () => h!;
}

/** Statuses of the requests to `path` since the mark (0: reset or stalled). */
export function statuses(h: Harness, path: string, method = 'GET'): number[] {
  return h.received().filter((r) => r.path === path && r.method === method).map((r) => r.status);
}

export const nowSeconds = () => Math.floor(Date.now() / 1000);

/** A run with an empty token cache (its own config dir), so that it asks for a token. */
export async function runCold(h: Harness, args: string[]): Promise<RunResult> {
  const { dir, cleanup } = tempConfigDir();
  try {
    return await runInProcess(args, { configDir: dir, env: credentialsEnv(h.sandbox) });
  } finally {
    cleanup();
  }
}

/**
 * Puts a token in the harness's cache (a run without a short --timeout), then marks the request
 * log: for a test whose short --timeout is meant for one request, so that it never also bounds the
 * token request, which a loaded machine may answer late. Call it before arming the test's faults.
 */
export async function warmToken(h: Harness): Promise<void> {
  const result = await h.idm(['streams', 'list', '--take', '1']);
  if (result.code !== 0) throw new Error(`warmToken: streams list exited ${result.code}: ${result.stderr}`);
  h.mark();
}
