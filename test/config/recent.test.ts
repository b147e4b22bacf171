// What the last listings showed, kept for shell completion (src/config/recent.ts): only values of the
// documented shapes, the last listing wins, and a directory that cannot be written costs nothing.
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readRecent, rememberRecent } from '../../src/config/recent.js';
import { fnv1a64 } from '../../src/core/hash.js';
import { tempConfigDir } from '../helpers/cli.js';

const TENANT = { base: 'https://tenant.example.com', host: 'tenant.example.com' };
const OTHER = { base: 'http://127.0.0.1:4010', host: '127.0.0.1:4010' };
/** The file of a kind at TENANT: recent-<kind>-<FNV-1a of the base URL>.txt. */
const FILE = (kind: string) => `recent-${kind}-${fnv1a64(TENANT.base)}.txt`;

let env: NodeJS.ProcessEnv;
let dir: string;
let cleanup: () => void;
beforeEach(() => {
  ({ dir, cleanup } = tempConfigDir());
  env = { IDM_CONFIG_DIR: dir };
});
afterEach(() => cleanup());

describe('recent values for completion', () => {
  it('keeps only ids of the documented shape: nothing a server sent reaches a shell unchecked', async () => {
    await rememberRecent(env, TENANT, 'streams', ['est_demoInboxBearer0000000', 'est_$(touch /tmp/x)000000000', 'est_a\nest_b', 42, undefined, 'est_demoInboxBearer0000000', 'est_demoAction000000000000']);
    expect(readRecent(env, TENANT, 'streams')).toEqual(['est_demoInboxBearer0000000', 'est_demoAction000000000000']);
    expect(readFileSync(join(dir, 'cache', FILE('streams')), 'utf8')).toBe('est_demoInboxBearer0000000\nest_demoAction000000000000\n');
  });

  // A stream's name goes beside its id in zsh and fish: a server's text, so one inert line, cut short.
  it('keeps each stream name as the description of its id, escaped and cut; a file holding one unsafe or too long drops it', async () => {
    const ids = ['est_demoInboxBearer0000000', 'est_demoInboxBasic00000000', 'est_demoInboxHeader0000000', 'est_demoAction000000000000'];
    await rememberRecent(env, TENANT, 'streams', ids, { descriptions: ['orders\tv2\n\u001b]2;pwned\u0007 $(x)', 'L'.repeat(300), undefined, '  '] });
    const file = join(dir, 'cache', FILE('streams'));
    const lines = readFileSync(file, 'utf8').split('\n');
    expect(lines[0]).toBe('est_demoInboxBearer0000000\torders\\tv2\\n\\x1b]2;pwned\\x07 $(x)');
    expect(lines[1]).toMatch(/^est_demoInboxBasic00000000\tL{60}… \(240 more characters\)$/);
    expect(lines.slice(2)).toEqual(['est_demoInboxHeader0000000', 'est_demoAction000000000000', '']);
    expect(readRecent(env, TENANT, 'streams')).toEqual(ids);
    expect(readRecent(env, TENANT, 'streams', { described: true })).toEqual([lines[0], lines[1], ids[2], ids[3]]);
    // Written by someone else: a raw control character or a huge name is not shown; the id is.
    writeFileSync(file, `${ids[0]}\tred \u001b[31m\n${ids[1]}\t${'x'.repeat(200)}\n${ids[2]}\tfine\n`);
    expect(readRecent(env, TENANT, 'streams', { described: true })).toEqual([ids[0], ids[1], `${ids[2]}\tfine`]);
  });

  it('a recent file over 4 MB (idm writes a few hundred bytes) is not read: no values, and the next listing replaces it', async () => {
    const file = join(dir, 'cache', FILE('streams'));
    mkdirSync(join(dir, 'cache'), { recursive: true });
    writeFileSync(file, 'est_demoInboxBearer0000000\n'.repeat(160_000)); // 4.3 MB of valid lines
    expect(readRecent(env, TENANT, 'streams')).toEqual([]);
    await rememberRecent(env, TENANT, 'streams', ['est_demoAction000000000000']);
    expect(readFileSync(file, 'utf8')).toBe('est_demoAction000000000000\n');
  });

  it('the last listing wins; a listing that showed none (the last stream deleted) leaves none to offer', async () => {
    await rememberRecent(env, TENANT, 'connections', ['con_googleAppsDemo01']);
    await rememberRecent(env, TENANT, 'connections', ['con_googleAppsTaken1', 'con_samlEnterprise01']);
    expect(readRecent(env, TENANT, 'connections')).toEqual(['con_googleAppsTaken1', 'con_samlEnterprise01']);
    await rememberRecent(env, TENANT, 'connections', []);
    expect(readRecent(env, TENANT, 'connections')).toEqual([]);
    // A merge of none (provisioning list with no configuration) keeps the others.
    await rememberRecent(env, TENANT, 'streams', ['est_demoAction000000000000']);
    await rememberRecent(env, TENANT, 'streams', [], { merge: true });
    expect(readRecent(env, TENANT, 'streams')).toEqual(['est_demoAction000000000000']);
    // None shown and none kept before: no file is made.
    await rememberRecent(env, OTHER, 'streams', []);
    expect(readdirSync(join(dir, 'cache')).sort()).toEqual([FILE('connections'), FILE('streams')].sort());
  });

  it('merge: a listing of some of a kind (provisioning list) puts its ids first and keeps the others', async () => {
    await rememberRecent(env, TENANT, 'connections', ['con_googleAppsDemo01', 'con_googleAppsTaken1']);
    await rememberRecent(env, TENANT, 'connections', ['con_googleAppsTaken1', 'con_googleAppsFails1'], { merge: true });
    expect(readRecent(env, TENANT, 'connections')).toEqual(['con_googleAppsTaken1', 'con_googleAppsFails1', 'con_googleAppsDemo01']);
  });

  it('written only under its lock: while another listing holds it, the file is left to that one', async () => {
    await rememberRecent(env, TENANT, 'streams', ['est_demoInboxBearer0000000']);
    const file = join(dir, 'cache', FILE('streams'));
    // A live holder (this process) of the lock, as another listing's would be.
    writeFileSync(`${file}.lock`, `${process.pid} - other-nonce ${Date.now()} -\n`);
    await rememberRecent(env, TENANT, 'streams', ['est_demoAction000000000000']);
    expect(readFileSync(file, 'utf8')).toBe('est_demoInboxBearer0000000\n');
    rmSync(`${file}.lock`);
    await rememberRecent(env, TENANT, 'streams', ['est_demoAction000000000000']);
    expect(readFileSync(file, 'utf8')).toBe('est_demoAction000000000000\n');
    expect(readdirSync(join(dir, 'cache'))).toEqual([FILE('streams')]); // the lock released
  });

  it("each tenant has its own: a listing at one tenant never offers its ids at another", async () => {
    await rememberRecent(env, TENANT, 'streams', ['est_demoInboxBearer0000000']);
    await rememberRecent(env, OTHER, 'streams', ['est_demoAction000000000000']);
    expect(readRecent(env, TENANT, 'streams')).toEqual(['est_demoInboxBearer0000000']);
    expect(readRecent(env, OTHER, 'streams')).toEqual(['est_demoAction000000000000']);
    expect(readRecent(env, { base: 'https://third.example.com', host: 'third.example.com' }, 'streams')).toEqual([]);
  });

  it('a damaged file yields only its valid lines', () => {
    mkdirSync(join(dir, 'cache'), { recursive: true });
    writeFileSync(join(dir, 'cache', FILE('strategies')), 'google-apps\n\u001b[2J\nsamlp\n');
    expect(readRecent(env, TENANT, 'strategies')).toEqual(['google-apps', 'samlp']);
  });

  it('a cache that cannot be written costs nothing (a file where the directory should be)', async () => {
    writeFileSync(join(dir, 'cache'), 'not a directory');
    await expect(rememberRecent(env, TENANT, 'streams', ['est_demoInboxBearer0000000'])).resolves.toBeUndefined();
    expect(readRecent(env, TENANT, 'streams')).toEqual([]);
  });
});
