// The README's shell examples against the sandbox, run as written: the built idm as `idm` on PATH,
// bash, curl and jq, in a directory of their own. The only change to a block is a fixed path of
// its (/tmp/sb) moved into that directory; the values (URL, CA file, client id, secret file) are
// the ones the started sandbox writes to sb.json, read by the block itself.
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { BIN, cliEnv, KILL_AFTER_MS } from '../../helpers/cli.js';

const README = readFileSync(new URL('../../../README.md', import.meta.url), 'utf8');

/** The first ```sh block after `heading` that contains `marker`. */
function shellBlock(heading: string, marker: string): string {
  const section = README.indexOf(`\n${heading}\n`);
  expect(section, heading).toBeGreaterThan(0);
  for (const [, body] of README.slice(section).matchAll(/```sh\n([\s\S]*?)```/g)) if (body!.includes(marker)) return body!;
  throw new Error(`no sh block with ${marker} after ${heading}`);
}

const missing = ['bash', 'curl', 'jq'].filter((tool) => spawnSync('sh', ['-c', `command -v ${tool}`]).status !== 0);
const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((dir) => rmSync(dir, { recursive: true, force: true })));

/**
 * Runs `block` with bash in a fresh directory, `idm` being the built binary; then stops the sandbox
 * the block started in the background (SIGTERM: bash starts background jobs with SIGINT ignored).
 */
async function runBlock(block: string, replace: Array<[string, string]> = []): Promise<{ code: number | null; stdout: string; stderr: string; dir: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'idm-readme-'));
  dirs.push(dir);
  mkdirSync(join(dir, 'bin'));
  mkdirSync(join(dir, 'config'));
  writeFileSync(join(dir, 'bin', 'idm'), `#!/bin/sh\nexec '${process.execPath}' '${BIN}' "$@"\n`);
  chmodSync(join(dir, 'bin', 'idm'), 0o755);
  let script = block;
  for (const [from, to] of replace) script = script.replaceAll(from, to.replace('DIR', dir));
  const wrapped = `${script}\nstatus=$?\nkill -TERM %1\nwait\nexit $status\n`;
  const env = cliEnv(join(dir, 'config'), { PATH: `${join(dir, 'bin')}:${process.env.PATH}` });
  const child = spawn('bash', ['-c', wrapped], { cwd: dir, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const timer = setTimeout(() => child.kill('SIGKILL'), KILL_AFTER_MS);
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  clearTimeout(timer);
  return { code, stdout, stderr, dir };
}

describe.skipIf(missing.length > 0)(`README sandbox examples, run with bash${missing.length ? ` (skipped: ${missing.join(', ')} not installed)` : ''}`, () => {
  it('With curl: a token with the secret file, then a page of two streams over HTTPS trusting only the CA', async () => {
    const block = shellBlock('### With curl and the official SDKs', 'curl');
    expect(block).toContain('--data-urlencode client_secret@');
    const { code, stdout, stderr } = await runBlock(block);
    expect(code, stderr).toBe(0);
    const page = JSON.parse(stdout);
    expect(page.eventStreams.map((stream: { id: string }) => stream.id)).toEqual(['est_demoInboxBearer0000000', 'est_demoInboxBasic00000000']);
    expect(typeof page.next).toBe('string');
  });

  it('HTTPS and mutual TLS: a tls_client_auth profile lists the streams', async () => {
    const block = shellBlock('### HTTPS, a kept tenant, and mutual TLS', 'tls_client_auth');
    const { code, stdout, stderr, dir } = await runBlock(block, [['/tmp/sb', 'DIR/sb-state']]);
    expect(code, stderr).toBe(0);
    expect(stdout).toMatch(/^est_demoInboxBearer0000000\t/);
    expect(JSON.parse(readFileSync(join(dir, 'sb.json'), 'utf8')).stateDir).toBe(join(dir, 'sb-state'));
  });
});

