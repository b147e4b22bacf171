// vitest globalSetup: the secrets sweep. Every idm run of the suite (runIdm in ./cli.ts, and the
// in-process runs that call recordRun) appends what it printed to a log in a directory made here;
// ./sandbox.ts and ./cli.ts append every secret they know of (the sandboxes' client secrets and
// private keys, seeded webhook secrets, the secrets and tokens handed to or stored by idm). When the
// suite ends, the run fails if any secret, or anything shaped like a JWT, appears in any output.
// `idm sandbox start` prints its own throwaway credentials by design: its stdout is not logged.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  interface ProvidedContext {
    secretsSweepDir: string;
  }
}

/** A signed JWT (access tokens, client assertions): three base64url parts, the first two JSON objects. */
const JWT = /eyJ[\w-]{8,}\.eyJ[\w-]{8,}\.[\w-]{16,}/;

export interface RunRecord {
  label: string;
  stdout: string;
  stderr: string;
}

export function findLeaks(secrets: Iterable<string>, runs: RunRecord[]): string[] {
  const problems: string[] = [];
  const all = runs.map((run) => `${run.stdout}\n${run.stderr}`).join('\n');
  for (const secret of new Set(secrets)) {
    if (!all.includes(secret)) continue;
    const run = runs.find((r) => r.stdout.includes(secret) || r.stderr.includes(secret));
    // Never the secret itself in the report: its length and where it showed up.
    problems.push(`a secret of ${secret.length} characters (starting ${JSON.stringify(secret.slice(0, 3))}) appeared in the output of: ${run?.label ?? '?'}`);
  }
  for (const run of runs) {
    const jwt = JWT.exec(`${run.stdout}\n${run.stderr}`);
    if (jwt) problems.push(`a JWT (${jwt[0].length} characters) appeared in the output of: ${run.label}`);
  }
  return problems;
}

function readLines<T>(dir: string, prefix: string): T[] {
  const out: T[] = [];
  for (const name of readdirSync(dir).filter((n) => n.startsWith(prefix))) {
    for (const line of readFileSync(join(dir, name), 'utf8').split('\n')) if (line) out.push(JSON.parse(line) as T);
  }
  return out;
}

export default function setup(project: TestProject) {
  const dir = mkdtempSync(join(tmpdir(), 'idm-sweep-'));
  project.provide('secretsSweepDir', dir);
  return () => {
    try {
      const secrets = readLines<string>(dir, 'secrets-');
      const runs = readLines<RunRecord>(dir, 'outputs-');
      const leaks = findLeaks(secrets, runs);
      if (leaks.length > 0) {
        // vitest reports an error thrown here but exits 0: set the exit code as well.
        process.exitCode = 1;
        throw new Error(`Secrets sweep: ${leaks.length} leak(s) in idm's output:\n${leaks.slice(0, 20).join('\n')}`);
      }
      // For the reader of the log: the sweep ran and over how much.
      console.log(`secrets sweep: ${new Set(secrets).size} secrets, ${runs.length} idm runs, no leak`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  };
}
