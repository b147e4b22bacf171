// Stress (npm run test:stress, also run by .ci/run): hundreds of idm processes against one config
// directory, and answers far larger than any real one. Nothing here measures speed: every limit is
// generous, and each assertion is about what was written, sent and answered.
import { once } from 'node:events';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { credentialsEnv, runIdm, type RunResult } from '../helpers/cli.js';
import { useConfigDirs } from '../helpers/deps.js';
import { useSandbox } from '../helpers/sandbox.js';

const sandbox = useSandbox();
const configDir = useConfigDirs();
const LIMIT = { timeoutMs: 300_000 };

/** Every file of the config directory is a finished JSON file: no temporary file or lock left. */
function expectCleanConfigDir(dir: string): void {
  for (const sub of ['credentials', 'tokens']) {
    for (const file of readdirSync(join(dir, sub))) {
      expect(file, `${sub}/${file} left behind`).toMatch(/\.json$/);
      expect(() => JSON.parse(readFileSync(join(dir, sub, file), 'utf8')), `${sub}/${file}`).not.toThrow();
    }
  }
  // The completion cache (config/recent.ts): whole files only, no temporary file left.
  for (const file of existsSync(join(dir, 'cache')) ? readdirSync(join(dir, 'cache')) : []) expect(file, `cache/${file} left behind`).toMatch(/^recent-[a-z]+-[0-9a-f]{16}\.txt$/);
  expect(readdirSync(dir).filter((f) => !['config.json', 'credentials', 'tokens', 'cache'].includes(f))).toEqual([]);
}

function secretFile(): string {
  const path = join(configDir(), 'secret'); // outside the config directory, removed with the others
  writeFileSync(path, sandbox().clients.reader.clientSecret);
  return path;
}

const login = (dir: string, secret: string, name: string) =>
  runIdm(['login', '--profile', name, '--domain', sandbox().url, '--client-id', sandbox().clients.reader.clientId, '--client-secret-file', secret], {
    configDir: dir,
    ...LIMIT,
  });

describe('parallel runs at scale', () => {
  it('100 logins to distinct profiles at once: every one exits 0 and every one is in config.json', async () => {
    const dir = configDir();
    const secret = secretFile();
    const names = Array.from({ length: 100 }, (_, i) => `p${String(i).padStart(3, '0')}`);
    const runs = await Promise.all(names.map((name) => login(dir, secret, name)));
    for (const run of runs) expect(run.code, run.stderr).toBe(0);
    const config = JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8'));
    expect(Object.keys(config.profiles).sort()).toEqual(names);
    expect(readdirSync(join(dir, 'credentials')).sort()).toEqual(names.map((n) => `${n}.json`));
    expectCleanConfigDir(dir);
  }, 400_000);

  it('100 cold `idm streams list` at once: no failure and one token request in total', async () => {
    const dir = configDir();
    const issued = sandbox().tokensIssued();
    const runs = await Promise.all(Array.from({ length: 100 }, () => runIdm(['streams', 'list', '--take', '1'], { configDir: dir, env: credentialsEnv(sandbox(), 'reader'), ...LIMIT })));
    for (const run of runs) {
      expect(run.stderr).toBe('');
      expect(run.code).toBe(0);
      expect(run.stdout).toMatch(/^est_\w{22}\t/);
    }
    expect(sandbox().tokensIssued() - issued).toBe(1);
    expect(readdirSync(join(dir, 'tokens'))).toHaveLength(1);
  }, 400_000);

  it('200 runs, 40 at a time (logins to 60 profiles, 140 listings through the token cache), leave every file valid JSON and lose no profile', async () => {
    const dir = configDir();
    const secret = secretFile();
    const names = Array.from({ length: 60 }, (_, i) => `p${String(i).padStart(2, '0')}`);
    const list = () => runIdm(['streams', 'list', '--take', '1'], { configDir: dir, env: credentialsEnv(sandbox(), 'reader'), ...LIMIT });
    // Interleaved: three logins in every ten runs.
    const jobs: Array<() => Promise<RunResult>> = [];
    for (let i = 0, n = 0; i < 200; i++) jobs.push(i % 10 < 3 ? ((name) => () => login(dir, secret, name))(names[n++]!) : list);
    const results: RunResult[] = [];
    let next = 0;
    await Promise.all(
      Array.from({ length: 40 }, async () => {
        while (next < jobs.length) results.push(await jobs[next++]!());
      }),
    );
    expect(results).toHaveLength(200);
    for (const run of results) expect(run.code, run.stderr).toBe(0);
    const config = JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8'));
    expect(Object.keys(config.profiles).sort()).toEqual(names);
    expect(readdirSync(join(dir, 'credentials')).sort()).toEqual(names.map((n) => `${n}.json`));
    expectCleanConfigDir(dir);
  }, 600_000);
});

describe('answers far larger than any real one', () => {
  it('a 64 MB list answer is refused after 8 MB: exit 1, and idm stops reading (the server could not send it all)', async () => {
    const TOTAL = 64 * 1024 * 1024;
    let sent = 0;
    let finished = false;
    const server = createServer(async (req, res) => {
      if (req.url === '/oauth/token') {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ access_token: 'eyJhbGciOiJub25lIn0.e30.x', token_type: 'Bearer', expires_in: 3600 }));
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' });
      const chunk = Buffer.alloc(64 * 1024, 0x20);
      res.write('{"eventStreams":[');
      while (sent < TOTAL && !res.destroyed) {
        sent += chunk.length;
        if (!res.write(chunk)) await Promise.race([once(res, 'drain'), once(res, 'close')]);
      }
      if (!res.destroyed) {
        finished = true;
        res.end(']}');
      }
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const result = await runIdm(['streams', 'list'], { configDir: configDir(), env: credentialsEnv(url, { clientId: 'client', clientSecret: 'secret' }), ...LIMIT });
      expect(result.code).toBe(1);
      expect(result.stdout).toBe('');
      expect(result.stderr).toContain('answered 200 with an answer larger than 8 MB.');
      expect(finished).toBe(false);
      expect(sent).toBeLessThan(TOTAL);
    } finally {
      server.closeAllConnections();
      server.close();
    }
  }, 300_000);
});
