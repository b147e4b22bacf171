// Runs idm with a hermetic config directory and captures what it printed and how it exited: in
// process through main() (runInProcess: most tests), or the built bin/idm.js as a real process
// (spawnIdm / runIdm: what only a process shows, such as signals, a closed pipe, start-up; and
// startSandboxProcess for `idm sandbox start`), or scripts that call the built idm by name (idmOnPath,
// runBash). Also the one way tests put client credentials in idm's environment (credentialsEnv).
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach } from 'vitest';
import { main } from '../../src/main.js';
import type { Sandbox } from '../../src/sandbox/types.js';
import { Capture, stdinOf } from './capture.js';
import { recordConfigDirSecrets, recordRun, recordSecrets } from './sweep.js';
import { TEST_DELIVERY_TIMEOUT_MS } from './timeouts.js';

export const BIN = fileURLToPath(new URL('../../bin/idm.js', import.meta.url));

export interface RunResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export interface RunOptions {
  env?: Record<string, string | undefined>;
  input?: string;
  /** When a spawned run is killed (SIGKILL): generous, a killed run is a failed test, not a timing. */
  timeoutMs?: number;
  cwd?: string;
}

/** The longest a spawned idm may run before it is killed; vitest's testTimeout is above it. */
export const KILL_AFTER_MS = 120_000;

export interface ClientSecret {
  clientId: string;
  clientSecret: string;
}

export type CredentialsEnv = { IDM_DOMAIN: string; IDM_CLIENT_ID: string; IDM_CLIENT_SECRET: string };

/**
 * Client credentials in idm's environment (no profile needed): a sandbox's admin (default) or reader
 * client, or any domain with a client id and secret (a fake or hostile server).
 */
export function credentialsEnv(sandbox: Pick<Sandbox, 'url' | 'clients'>, client?: 'admin' | 'reader'): CredentialsEnv;
export function credentialsEnv(domain: string, client: ClientSecret): CredentialsEnv;
export function credentialsEnv(target: string | Pick<Sandbox, 'url' | 'clients'>, client: 'admin' | 'reader' | ClientSecret = 'admin'): CredentialsEnv {
  const domain = typeof target === 'string' ? target : target.url;
  const { clientId, clientSecret } = typeof client === 'string' ? (target as Pick<Sandbox, 'clients'>).clients[client] : client;
  return { IDM_DOMAIN: domain, IDM_CLIENT_ID: clientId, IDM_CLIENT_SECRET: clientSecret };
}

/** A fresh config directory per test; removed by the returned cleanup. */
export function tempConfigDir(): { dir: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'idm-test-'));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/**
 * Environment for a child idm: nothing inherited that could change its behaviour (a developer's
 * IDM_* variables, colour forcing, CI, proxy variables), a private config dir, and the caller's additions.
 */
export function cliEnv(configDir: string, extra: Record<string, string | undefined> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (key.startsWith('IDM_') || key === 'NO_COLOR' || key === 'FORCE_COLOR' || key === 'CI' || /^(https?|no|all)_proxy$/i.test(key)) continue;
    env[key] = value;
  }
  env.IDM_CONFIG_DIR = configDir;
  for (const [key, value] of Object.entries(extra)) {
    if (value === undefined) delete env[key];
    else env[key] = value;
  }
  return env;
}

export interface InProcessOptions extends RunOptions {
  /** stdout, stderr (and stdin) are terminals; prompts still need a real one (tmux). */
  tty?: boolean;
  /** Terminal width (with tty). */
  columns?: number;
}

/**
 * idm in this process: main() with captured streams and the same hermetic environment as runIdm.
 * No process signals are handled (the run cannot be interrupted) and nothing touches process.env.
 */
export async function runInProcess(args: readonly string[], options: InProcessOptions & { configDir: string }): Promise<RunResult> {
  const stdout = new Capture(Boolean(options.tty), options.columns);
  const stderr = new Capture(Boolean(options.tty), options.columns);
  const stdin = stdinOf(options.input, Boolean(options.tty));
  const code = await main(['node', 'idm', ...args], { stdin, stdout, stderr }, cliEnv(options.configDir, options.env));
  sweep(args, options, stdout.text, stderr.text);
  return { code, signal: null, stdout: stdout.text, stderr: withoutSpinner(stderr.text) };
}

export interface SpawnOptions extends RunOptions {
  configDir: string;
  /** Run as this user (and group): root only. */
  uid?: number;
}

export interface Spawned {
  child: ChildProcessWithoutNullStreams;
  done: Promise<RunResult>;
}

/** The built bin/idm.js as a real process (`npm run build` first), its stdio piped; `done` when it has ended. */
export function spawnIdm(args: readonly string[], options: SpawnOptions): Spawned {
  const child = spawn(process.execPath, [BIN, ...args], {
    env: cliEnv(options.configDir, options.env),
    cwd: options.cwd,
    stdio: ['pipe', 'pipe', 'pipe'],
    uid: options.uid,
    gid: options.uid,
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  child.stdin.on('error', () => {}); // a run that ends before reading its stdin
  const done = new Promise<RunResult>((resolve, reject) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? KILL_AFTER_MS);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      sweep(args, options, stdout, stderr);
      resolve({ code, signal, stdout, stderr: withoutSpinner(stderr) });
    });
  });
  child.stdin.end(options.input ?? '');
  return { child, done };
}

/**
 * What a spawned run has printed on stderr once it holds `text` (the run goes on); rejected when the
 * run ends first. For a test that acts when idm says something (a lock released once idm says it waits).
 */
export function stderrUntil(child: ChildProcessWithoutNullStreams, text: string): Promise<string> {
  return new Promise<string>((resolve, reject) => {
    let seen = '';
    child.stderr.on('data', (chunk: string) => {
      seen += chunk;
      if (seen.includes(text)) resolve(seen);
    });
    child.on('close', () => reject(new Error(`idm ended without saying ${JSON.stringify(text)}: ${seen}`)));
  });
}

/** spawnIdm, and what the run printed and how it ended. */
export function runIdm(args: readonly string[], options: SpawnOptions): Promise<RunResult> {
  return spawnIdm(args, options).done;
}

export interface SandboxProcess {
  /** With `json`: the first line it printed (the tenant, its clients and files), parsed. */
  info: any; // eslint-disable-line @typescript-eslint/no-explicit-any
  /** What it printed so far. */
  stdout(): string;
  stderr(): string;
  /** Sends `signal` (SIGINT: Ctrl-C) and resolves when it has ended. */
  stop(signal?: NodeJS.Signals): Promise<RunResult>;
  /** SIGKILL, for a `finally`: nothing once it has ended. */
  kill(): void;
}

/**
 * `idm sandbox start ARGS` as a process (spawnIdm), once it runs: with `json`, after its first line;
 * for people, after 'Running until Ctrl-C.' on stderr. One that ends before is a failure naming its
 * exit code and stderr. Webhook attempts wait TEST_DELIVERY_TIMEOUT_MS unless ARGS say --delivery-timeout.
 */
export async function startSandboxProcess(args: readonly string[], options: SpawnOptions & { json?: boolean }): Promise<SandboxProcess> {
  const timeout = args.includes('--delivery-timeout') ? [] : ['--delivery-timeout', String(TEST_DELIVERY_TIMEOUT_MS)];
  const { child, done } = spawnIdm(['sandbox', 'start', ...(options.json ? ['--json'] : []), ...timeout, ...args], options);
  let stdout = '';
  let stderr = '';
  try {
    await new Promise<void>((resolve, reject) => {
      const ready = () => (options.json ? stdout.includes('\n') : stderr.includes('Running until Ctrl-C.')) && resolve();
      child.stdout.on('data', (chunk: string) => ((stdout += chunk), ready()));
      child.stderr.on('data', (chunk: string) => ((stderr += chunk), ready()));
      void done.then((result) => reject(new Error(`idm sandbox start ended (exit ${result.code}) before it ran: ${result.stderr}`)));
    });
  } catch (error) {
    child.kill('SIGKILL');
    throw error;
  }
  return {
    info: options.json ? JSON.parse(stdout.slice(0, stdout.indexOf('\n'))) : undefined,
    stdout: () => stdout,
    stderr: () => stderr,
    stop: (signal = 'SIGINT') => {
      child.kill(signal);
      return done;
    },
    kill: () => void child.kill('SIGKILL'),
  };
}

/**
 * A directory holding `idm`, a script that runs the built binary: first in a PATH, scripts and shells
 * call the built idm by its name. Made inside `dir`; returned for PATH.
 */
export function idmOnPath(dir: string): string {
  const bin = join(dir, 'bin');
  mkdirSync(bin, { recursive: true });
  writeFileSync(join(bin, 'idm'), `#!/bin/sh\nexec '${process.execPath}' '${BIN}' "$@"\n`, { mode: 0o755 });
  return bin;
}

/**
 * `script` run by bash in `cwd`, with `idm` on its PATH (idmOnPath), cliEnv's environment and
 * config directory: what it printed and how it ended (killed after timeoutMs, as spawnIdm). Bash
 * leads a process group of its own, and the kill is the group's: a job it started in the background
 * (a README block's sandbox) goes with it, rather than running on and holding the output pipes open.
 */
export function runBash(script: string, options: { cwd: string; configDir: string; env?: Record<string, string | undefined>; timeoutMs?: number }): Promise<RunResult> {
  const path = `${idmOnPath(options.cwd)}:${process.env.PATH}`;
  const child = spawn('bash', ['--norc', '--noprofile', '-c', script], { cwd: options.cwd, env: cliEnv(options.configDir, { PATH: path, ...options.env }), stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  return new Promise<RunResult>((resolve, reject) => {
    const timer = setTimeout(() => {
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        // the group has ended
      }
    }, options.timeoutMs ?? KILL_AFTER_MS);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr });
    });
  });
}

/**
 * stderr without the spinner's frames and their erasing. At a terminal idm draws a spinner for a
 * request slower than a third of a second, which on a busy machine any request may be: tests see
 * stderr without it, so that none depends on speed. Its own tests (test/io/progress.test.ts, the
 * tmux tests) see it. The secrets sweep sees everything.
 */
export function withoutSpinner(stderr: string): string {
  return stderr.replace(/(?:\r\x1b\[K[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] [^\r\n]*)+(?:\r\x1b\[K)?/g, '');
}

const SECRET_FILE_FLAGS = new Set(['--client-secret-file', '--private-key-file', '--client-key']);

/**
 * For the secrets sweep (./secrets-sweep.ts): logs what the run printed, and registers the secrets it
 * was handed (environment, secret files, stdin for `-`) or stored (credentials, cached tokens).
 * `idm sandbox start` prints its throwaway client credentials by design: its stdout is left out.
 */
function sweep(args: readonly string[], options: RunOptions & { configDir: string }, stdout: string, stderr: string): void {
  const env = options.env ?? {};
  const handed: Array<string | undefined> = [env.IDM_CLIENT_SECRET, env.IDM_PRIVATE_KEY, env.IDM_ACCESS_TOKEN];
  args.forEach((arg, i) => {
    const value = args[i + 1];
    if (!SECRET_FILE_FLAGS.has(arg) || value === undefined) return;
    if (value === '-') handed.push(options.input);
    else if (existsSync(value) && statSync(value).isFile() && statSync(value).size < 1_000_000) handed.push(readFileSync(value, 'utf8'));
  });
  recordSecrets(handed);
  recordConfigDirSecrets(options.configDir);
  const sandboxStart = args.some((arg, i) => arg === 'sandbox' && args[i + 1] === 'start');
  recordRun(`idm ${args.join(' ').slice(0, 200)}`, sandboxStart ? '' : stdout, stderr);
}

/**
 * For a test file that starts sandbox processes: a fresh config directory per call, and each sandbox
 * started, removed and SIGKILLed (if it still runs, after a failed assertion) after every test.
 */
export function sandboxProcesses(): {
  configDir(): string;
  started(args: string[], options: { configDir: string; json?: boolean }): Promise<SandboxProcess>;
  /** Something else to undo after the test (in reverse order, with the rest). */
  later(cleanup: () => void): void;
} {
  const cleanups: Array<() => void> = [];
  afterEach(() => cleanups.splice(0).reverse().forEach((cleanup) => cleanup()));
  return {
    configDir() {
      const { dir, cleanup } = tempConfigDir();
      cleanups.push(cleanup);
      return dir;
    },
    async started(args, options) {
      const sandbox = await startSandboxProcess(args, options);
      cleanups.push(() => sandbox.kill());
      return sandbox;
    },
    later(cleanup) {
      cleanups.push(cleanup);
    },
  };
}
