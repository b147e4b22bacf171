// The two logs of the secrets sweep (./secrets-sweep.ts, a vitest globalSetup): what idm printed, and
// the secrets it must never print. Append-only JSON lines, one file per test worker process.
import { appendFileSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { inject } from 'vitest';

function dir(): string | undefined {
  try {
    return inject('secretsSweepDir');
  } catch {
    return undefined; // not under vitest's globalSetup (a script importing the helpers)
  }
}

/** Logs one idm run's output for the sweep. */
export function recordRun(label: string, stdout: string, stderr: string): void {
  const at = dir();
  if (at) appendFileSync(join(at, `outputs-${process.pid}.jsonl`), `${JSON.stringify({ label, stdout, stderr })}\n`);
}

/**
 * Registers secrets that must never appear in idm's output. A PEM also registers each line of its
 * body, so that part of a key is caught too. Short values (under 8 characters) would match by chance.
 */
export function recordSecrets(values: Iterable<string | undefined>): void {
  const at = dir();
  if (!at) return;
  const out: string[] = [];
  for (const value of values) {
    if (typeof value !== 'string') continue;
    const trimmed = value.trim();
    if (trimmed.length >= 8) out.push(trimmed);
    if (trimmed.includes('-----BEGIN')) out.push(...trimmed.split('\n').filter((line) => line.length >= 40 && !line.startsWith('-----')));
  }
  if (out.length) appendFileSync(join(at, `secrets-${process.pid}.jsonl`), out.map((s) => `${JSON.stringify(s)}\n`).join(''));
}

/** Secrets idm keeps in a config directory: stored client secrets and private keys, cached tokens. */
export function recordConfigDirSecrets(configDir: string): void {
  const values: string[] = [];
  for (const [sub, keys] of [
    ['credentials', ['clientSecret', 'privateKeyPem']],
    ['tokens', ['accessToken']],
  ] as const) {
    let names: string[] = [];
    try {
      names = readdirSync(join(configDir, sub)).filter((name) => name.endsWith('.json'));
    } catch {
      continue;
    }
    for (const name of names) {
      try {
        const data = JSON.parse(readFileSync(join(configDir, sub, name), 'utf8')) as Record<string, unknown>;
        for (const key of keys) if (typeof data[key] === 'string') values.push(data[key] as string);
      } catch {
        // a damaged file written by a test on purpose
      }
    }
  }
  recordSecrets(values);
}
