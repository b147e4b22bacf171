// idm auth status: how far the token's expiry is, in words, read against an injected clock (no real
// time). Under a minute it is counted in seconds: it used to read "(in 0 min)" for a token of a
// short lifetime (a sandbox's --token-lifetime 60) for all of its life.
import { mkdirSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { inWords } from '../../../src/auth/state.js';
import { audienceOf, isFresh, tokenCacheFile, type CachedToken } from '../../../src/auth/tokens.js';
import { parseDomain } from '../../../src/config/domain.js';
import { tokensDir } from '../../../src/config/paths.js';
import { authStatusRun } from '../../../src/commands/auth/status.js';
import { profileSummaries } from '../../../src/commands/profiles/list.js';
import { saveProfile } from '../../../src/config/store.js';
import { tempConfigDir } from '../../helpers/cli.js';
import { runCommand } from '../../helpers/deps.js';

const NOW = Date.parse('2026-11-25T10:20:30Z');
/** An access token as IDM_ACCESS_TOKEN gives it: a JWT whose only claims idm reads are exp and scope. */
const tokenExpiringAt = (seconds: number) => `eyJhbGciOiJub25lIn0.${Buffer.from(JSON.stringify({ exp: seconds, scope: 'read:event_streams' })).toString('base64url')}.sig`;

async function tokenLine(expSeconds: number): Promise<string | undefined> {
  const { dir, cleanup } = tempConfigDir();
  try {
    const env = { IDM_CONFIG_DIR: dir, IDM_DOMAIN: 'http://127.0.0.1:9', IDM_ACCESS_TOKEN: tokenExpiringAt(expSeconds) };
    const { stdout, error } = await runCommand((deps) => authStatusRun({}, deps, NOW), { env });
    expect(error).toBeUndefined();
    return /^Token\t(.*)$/m.exec(stdout)?.[1];
  } finally {
    cleanup();
  }
}

describe('auth status: the time left on the token', () => {
  it.each([
    [42, 'from IDM_ACCESS_TOKEN, valid until 2026-11-25T10:21:12.000Z (in 42 s)'],
    [1, 'from IDM_ACCESS_TOKEN, valid until 2026-11-25T10:20:31.000Z (in 1 s)'],
    [60, 'from IDM_ACCESS_TOKEN, valid until 2026-11-25T10:21:30.000Z (in 1 min)'],
    [3 * 3600 + 12 * 60, 'from IDM_ACCESS_TOKEN, valid until 2026-11-25T13:32:30.000Z (in 3 h 12 min)'],
    [3 * 86400, 'from IDM_ACCESS_TOKEN, valid until 2026-11-28T10:20:30.000Z (in 3 days)'],
    [-5, 'expired at 2026-11-25T10:20:25.000Z'],
  ])('%i s from now: %s', async (left, line) => {
    expect(await tokenLine(NOW / 1000 + left)).toBe(line);
  });
});

// A cached token in its last minute (or last quarter of a short lifetime) is not used by commands
// (isFresh): status said "valid until ..." all the same, and the next command fetched a new one.
describe('auth status: a cached token the next command renews', () => {
  const domain = 'http://127.0.0.1:9';
  const clientId = 'status-client';
  async function cachedLine(obtainedAgo: number, left: number): Promise<{ line?: string; fresh: boolean; state: unknown; listed: unknown }> {
    const { dir, cleanup } = tempConfigDir();
    try {
      const tenant = parseDomain(domain, 'domain');
      const token: CachedToken = {
        accessToken: tokenExpiringAt(NOW / 1000 + left),
        tokenType: 'Bearer',
        obtainedAt: NOW - obtainedAgo * 1000,
        expiresAt: NOW + left * 1000,
        domain: tenant.base,
        clientId,
        audience: audienceOf(tenant),
      };
      mkdirSync(tokensDir(dir), { recursive: true, mode: 0o700 });
      writeFileSync(tokenCacheFile(dir, tenant, clientId), JSON.stringify(token), { mode: 0o600 });
      const env = { IDM_CONFIG_DIR: dir, IDM_DOMAIN: domain, IDM_CLIENT_ID: clientId, IDM_CLIENT_SECRET: 'status-secret' };
      const { stdout, stderr, error } = await runCommand((deps) => authStatusRun({}, deps, NOW), { env });
      expect(error).toBeUndefined();
      expect(`${stdout}${stderr}`).not.toContain('status-secret');
      // The machine-readable state: auth status --json, and profiles list (a profile of that client).
      const json = await runCommand((deps) => authStatusRun({}, deps, NOW), { env, json: true });
      expect(json.error).toBeUndefined();
      await saveProfile(dir, 'default', { domain, clientId, authMethod: 'post' }, { clientSecret: 'status-secret' });
      const [listed] = profileSummaries({ IDM_CONFIG_DIR: dir }, NOW);
      expect(listed!.token.expiresAt).toBe(new Date(token.expiresAt).toISOString());
      return { line: /^Token\t(.*)$/m.exec(stdout)?.[1], fresh: isFresh(token, NOW), state: JSON.parse(json.stdout).token.state, listed: listed!.token.state };
    } finally {
      cleanup();
    }
  }

  it.each([
    // obtained (s ago), left (s), the line: a day's token, in its last minute or not; a 60 s token, in its last 15 s or not.
    [86_400 - 42, 42, 'cached, valid until 2026-11-25T10:21:12.000Z (in 42 s), renewed by the next command'],
    [86_400 - 61, 61, 'cached, valid until 2026-11-25T10:21:31.000Z (in 1 min)'],
    [50, 10, 'cached, valid until 2026-11-25T10:20:40.000Z (in 10 s), renewed by the next command'],
    [20, 40, 'cached, valid until 2026-11-25T10:21:10.000Z (in 40 s)'],
  ])('obtained %i s ago, %i s left: %s', async (ago, left, line) => {
    const shown = await cachedLine(ago, left);
    expect(shown.line).toBe(line);
    // The rule of the token source, in one place: renewed exactly when commands no longer use it.
    expect(shown.line!.endsWith('renewed by the next command')).toBe(!shown.fresh);
    // --json and profiles list said `valid` for a token no command uses: the state is whether idm uses it.
    expect(shown.state).toBe(shown.fresh ? 'valid' : 'expired');
    expect(shown.listed).toBe(shown.state);
  });
});

describe('inWords', () => {
  it.each([
    [0, '0 s'],
    [999, '0 s'],
    [59_999, '59 s'],
    [60_000, '1 min'],
    [3_599_999, '59 min'],
    [3_600_000, '1 h 0 min'],
    [47 * 3_600_000 + 59 * 60_000, '47 h 59 min'],
    [48 * 3_600_000, '2 days'],
  ])('%i ms: %s', (ms, words) => {
    expect(inWords(ms)).toBe(words);
  });
});
