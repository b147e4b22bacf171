// idm auth status: how far the token's expiry is, in words, read against an injected clock (no real
// time). Under a minute it is counted in seconds: it used to read "(in 0 min)" for a token of a
// short lifetime (a sandbox's --token-lifetime 60) for all of its life.
import { describe, expect, it } from 'vitest';
import { inWords } from '../../../src/auth/state.js';
import { authStatusRun } from '../../../src/commands/auth/status.js';
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
