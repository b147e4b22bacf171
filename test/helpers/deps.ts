// For tests of run functions and of the layers under them: an IO whose streams are captured strings
// (TTY on or off), and a Deps built on it exactly as main() builds its own; and the set-up the CLI
// tests share (config directories, the cached token file, a 403 fault).
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import { createDeps, type Deps } from '../../src/cli/factory.js';
import type { GlobalOptions } from '../../src/cli/program.js';
import { IdmError } from '../../src/core/errors.js';
import { createIO, type IO } from '../../src/io/io.js';
import type { Prompter } from '../../src/io/prompter.js';
import { Capture, stdinOf } from './capture.js';
import { tempConfigDir } from './cli.js';

export interface Captured {
  io: IO;
  stdout(): string;
  stderr(): string;
}

export function captureIO(options: { tty?: boolean; env?: NodeJS.ProcessEnv; stdin?: string } = {}): Captured {
  const stdin = stdinOf(options.stdin, options.tty ?? false);
  const stdout = new Capture(options.tty ?? false, 200);
  const stderr = new Capture(options.tty ?? false, 200);
  const io = createIO({ stdin, stdout, stderr }, { ...(options.env ?? {}) });
  return { io, stdout: () => stdout.text, stderr: () => stderr.text };
}

export function testDeps(
  captured: Captured,
  globals: Partial<GlobalOptions> = {},
  prompter?: Prompter,
): Deps {
  const all: GlobalOptions = { json: false, color: false, input: true, debug: false, ...globals };
  void captured.io.configure({ color: all.color, input: all.input, json: all.json });
  const deps = createDeps(captured.io, () => all);
  if (prompter) deps.prompter = async () => prompter;
  return deps;
}

export interface RunSetup {
  tty?: boolean;
  stdin?: string;
  env?: NodeJS.ProcessEnv;
  json?: boolean;
  profile?: string;
  prompter?: Prompter;
}

/** A run function called as main() would call it: what it printed, and the IdmError it ended with. */
export async function runCommand(fn: (deps: Deps) => Promise<void>, setup: RunSetup = {}): Promise<{ stdout: string; stderr: string; error?: IdmError }> {
  const captured = captureIO({ tty: setup.tty, stdin: setup.stdin, env: setup.env });
  const deps = testDeps(captured, { json: setup.json ?? false, profile: setup.profile }, setup.prompter);
  let error: IdmError | undefined;
  try {
    await fn(deps);
  } catch (caught) {
    if (!(caught instanceof IdmError)) throw caught;
    error = caught;
  } finally {
    await deps.close();
  }
  return { stdout: captured.stdout(), stderr: captured.stderr(), error };
}

/** Config directories made on demand and removed after the file's tests. */
export function useConfigDirs(): () => string {
  const cleanups: Array<() => void> = [];
  afterAll(() => cleanups.splice(0).forEach((cleanup) => cleanup()));
  return () => {
    const { dir, cleanup } = tempConfigDir();
    cleanups.push(cleanup);
    return dir;
  };
}

/** The cached token file of a config directory (undefined when there is none). */
export function cachedTokenFile(dir: string): string | undefined {
  const tokens = join(dir, 'tokens');
  const name = existsSync(tokens) ? readdirSync(tokens).find((f) => f.endsWith('.json')) : undefined;
  return name && join(tokens, name);
}

/** The service's 403 for a token without read:event_streams, as a sandbox fault on the list endpoint. */
export const INSUFFICIENT_SCOPE_BODY = { statusCode: 403, error: 'Forbidden', message: 'Insufficient scope; expected any of: read:event_streams.', errorCode: 'insufficient_scope' };
export const insufficientScope = { path: '/api/v2/event-streams', kind: 'status', status: 403, body: JSON.stringify(INSUFFICIENT_SCOPE_BODY), headers: { 'content-type': 'application/json; charset=utf-8' } } as const;
