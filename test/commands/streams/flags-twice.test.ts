// A value flag of the streams commands given twice with two values: a usage error (exit 2) naming the
// flag, nothing sent, as --data, --from-file and --secret-file already were; before, the last value
// silently won (`--take 5 --take 7` listed 7, `--since 7d --since 1h` asked for the last hour). The
// same value twice is no contradiction. A webhook URL or a test's event type given twice is not
// quoted (a URL's path may be its key; anything but an event type may be a token).
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../../helpers/harness.js';

const S = 'est_twiceFlags00000000000a';
const SEED = { streams: [{ id: S, name: 'twice', subscriptions: [{ event_type: 'user.created' }], destination: { type: 'action', configuration: { action_id: 'twice' } } }] };

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ seed: SEED });
});
afterAll(() => h.close());
beforeEach(() => h.mark());

const create = ['streams', 'create', '--event-type', 'user.created'];
const hook = 'https://hooks.example.com/services/T0/B0/first-key';

describe('a streams flag given twice with two values: exit 2, nothing sent (the last value silently won)', () => {
  it.each([
    [['streams', 'list', '--take', '5', '--take', '7'], '--take is given twice (5 and 7): give it once.'],
    [['streams', 'list', '--from', 'c1', '--from', 'c2'], '--from is given twice (c1 and c2): give it once.'],
    [['streams', 'deliveries', 'list', S, '--take', '5', '--take', '7'], '--take is given twice (5 and 7): give it once.'],
    [['streams', 'deliveries', 'list', S, '--since', '2026-11-24', '--since', '2026-11-25'], '--since is given twice (2026-11-24T00:00:00Z and 2026-11-25T00:00:00Z): give it once.'],
    [['streams', 'deliveries', 'list', S, '--until', '2026-11-24', '--until', '2026-11-25'], '--until is given twice (2026-11-24T00:00:00Z and 2026-11-25T00:00:00Z): give it once.'],
    [['streams', 'redeliver', S, '--since', '7d', '--since', '1h'], '--since is given twice'],
    [['streams', 'stats', S, '--since', '2026-11-24', '--since', '2026-11-25'], '--since is given twice (2026-11-24T00:00:00Z and 2026-11-25T00:00:00Z): give it once.'],
    [['streams', 'stats', S, '--until', '1h', '--until', '2h'], '--until is given twice'],
    [[...create, '--name', 'a', '--name', 'b', '--action', 'x'], '--name is given twice (a and b): give it once.'],
    [['streams', 'update', S, '--name', 'a', '--name', 'b'], '--name is given twice (a and b): give it once.'],
    [[...create, '--name', 'n', '--action', 'x', '--action', 'y'], '--action is given twice (x and y): give it once.'],
    [[...create, '--name', 'n', '--webhook', hook, '--webhook', 'https://hooks.example.com/other', '--auth', 'bearer'], '--webhook is given twice: give it once.'],
    [[...create, '--name', 'n', '--webhook', hook, '--auth', 'bearer', '--auth', 'basic'], '--auth is given twice (bearer and basic): give it once.'],
    [[...create, '--name', 'n', '--webhook', hook, '--auth', 'basic', '--username', 'u1', '--username', 'u2'], '--username is given twice (u1 and u2): give it once.'],
    [[...create, '--name', 'n', '--webhook', hook, '--auth', 'custom-header', '--header-key', 'X-A', '--header-key', 'X-B'], '--header-key is given twice (X-A and X-B): give it once.'],
    [[...create, '--name', 'n', '--eventbus-account', '123456789012', '--eventbus-account', '223456789012', '--eventbus-region', 'us-east-1'], '--eventbus-account is given twice (123456789012 and 223456789012): give it once.'],
    [[...create, '--name', 'n', '--eventbus-account', '123456789012', '--eventbus-region', 'us-east-1', '--eventbus-region', 'us-east-2'], '--eventbus-region is given twice (us-east-1 and us-east-2): give it once.'],
    [['streams', 'test', S, '--event-type', 'user.created', '--event-type', 'user.deleted'], '--event-type is given twice: give it once.'],
    [['streams', 'test', S, '--event-type', 'user.created', '--wait', '--wait-timeout', '5', '--wait-timeout', '9'], '--wait-timeout is given twice (5 and 9): give it once.'],
  ])('%j', async (args, message) => {
    const result = await h.idm(args);
    expect(result.code, result.stderr).toBe(2);
    expect(result.stderr).toContain(message);
    expect(result.stderr).not.toContain('first-key');
    expect(result.stdout).toBe('');
    expect(h.calls()).toEqual([]);
  });

  it('a long value is quoted as a preview (its first 40 characters), not whole', async () => {
    const cursor = `c${'x'.repeat(2_999)}`;
    const result = await h.idm(['streams', 'list', '--from', cursor, '--from', 'c2']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`--from is given twice (${cursor.slice(0, 40)}… (2960 more characters) and c2): give it once.`);
    expect(result.stderr.length).toBeLessThan(200);
    expect(h.calls()).toEqual([]);
  });

  it('the same value twice is no contradiction: taken, as once (a duration twice is the same time)', async () => {
    const listed = await h.idm(['streams', 'list', '--take', '5', '--take', '5']);
    expect(listed.code, listed.stderr).toBe(0);
    const deliveries = await h.idm(['streams', 'deliveries', 'list', S, '--since', '6h', '--since', '6h', '--until', '1m', '--until', '1m']);
    expect(deliveries.code, deliveries.stderr).toBe(0);
    const query = new URL(h.calls('GET').find((call) => call.url.includes('/deliveries'))!.url, 'https://x').searchParams;
    expect(query.get('date_from')).toMatch(/Z$/);
  });
});

// README says it of every flag that takes one value: the global flags, login's and provisioning
// groups list's --search took the last one too (`idm --profile prod streams delete ID --profile dev`
// used dev).
describe('a global, login or groups flag given twice with two values: exit 2, nothing sent (the last value silently won)', () => {
  it.each([
    [['--profile', 'prod', 'streams', 'list', '--profile', 'dev'], '--profile is given twice (prod and dev): give it once.'],
    [['--timeout', '5', 'streams', 'list', '--timeout', '6'], '--timeout is given twice (5 and 6): give it once.'],
    [['--max-wait', '1', '--max-wait', '2', 'streams', 'list'], '--max-wait is given twice (1 and 2): give it once.'],
    [['login', '--domain', 'a.example.com', '--domain', 'b.example.com'], '--domain is given twice (https://a.example.com and https://b.example.com): give it once.'],
    [['login', '--client-id', 'one', '--client-id', 'two'], '--client-id is given twice (one and two): give it once.'],
    [['login', '--auth-method', 'post', '--auth-method', 'basic'], '--auth-method is given twice (post and basic): give it once.'],
    [['login', '--signing-alg', 'RS256', '--signing-alg', 'ES256'], '--signing-alg is given twice (RS256 and ES256): give it once.'],
    [['provisioning', 'groups', 'list', 'con_twiceFlags000001', '--search', 'a', '--search', 'b'], '--search is given twice (a and b): give it once.'],
  ])('%j', async (args, message) => {
    const result = await h.idm(args);
    expect(result.code, result.stderr).toBe(2);
    expect(result.stderr).toContain(message);
    expect(result.stdout).toBe('');
    expect(h.calls()).toEqual([]);
  });

  it('a choice is still checked, and the same value twice is taken', async () => {
    const refused = await h.idm(['login', '--auth-method', 'nope']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('--auth-method must be one of: post, basic, private_key_jwt, tls_client_auth.');
    const listed = await h.idm(['--timeout', '5', 'streams', 'list', '--timeout', '5']);
    expect(listed.code, listed.stderr).toBe(0);
  });
});

// sandbox start too (a --seed that cannot be read ends the run before anything starts, whichever way it goes).
describe('a sandbox start flag given twice with two values: exit 2 naming it (the last value silently won)', () => {
  const NO_SEED = ['--seed', '/nonexistent/idm-twice-seed.json'];
  it.each([
    [['--port', '1', '--port', '2'], '--port is given twice (1 and 2): give it once.'],
    [['--streams', '5', '--streams', '7'], '--streams is given twice (5 and 7): give it once.'],
    [['--token-lifetime', '60', '--token-lifetime', '90'], '--token-lifetime is given twice (60 and 90): give it once.'],
    [['--max-streams', '5', '--max-streams', '7'], '--max-streams is given twice (5 and 7): give it once.'],
    [['--delivery', 'sync', '--delivery', 'async'], '--delivery is given twice (sync and async): give it once.'],
    [['--delivery-timeout', '100', '--delivery-timeout', '200'], '--delivery-timeout is given twice (100 and 200): give it once.'],
  ])('%j', async (flags, message) => {
    const result = await h.idm(['sandbox', 'start', ...flags, ...NO_SEED]);
    expect(result.code, result.stderr).toBe(2);
    expect(result.stderr.split('\n')[0]).toBe(`Error: ${message}`);
  });

  it('the same value twice is taken (the run then stops at the seed), and --delivery still checks its choice', async () => {
    expect((await h.idm(['sandbox', 'start', '--port', '5', '--port', '5', ...NO_SEED])).stderr).toMatch(/^Error: --seed: cannot read/);
    expect((await h.idm(['sandbox', 'start', '--delivery', 'later', ...NO_SEED])).stderr).toMatch(/^Error: --delivery must be one of: async, sync\./);
  });
});
