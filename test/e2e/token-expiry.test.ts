// A run that outlives its access tokens, with the built bin/idm.js against a sandbox whose tokens
// live 8 s and whose listing answers take 1.2 s each: `--all` and `api --paginate` over 8 pages see
// at least one token expire. idm checks the expiry before every request and gets a new token (under
// the cache's lock) when the one it holds is near expiry; a 401 on a token that expired while its
// request was on the way is retried once with a new token. Time is driven by the sandbox's token
// lifetime and latency; nothing here measures speed: every bound below holds however slowly idm or
// the sandbox runs (a slower run only widens it). A 401 on a token just fetched is still exit 4.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { RecordedRequest } from '../../src/sandbox/types.js';
import { credentialsEnv, runIdm, tempConfigDir } from '../helpers/cli.js';
import { direct, useSandbox, type Sandbox } from '../helpers/sandbox.js';

const LIFETIME_SECONDS = 8;
/** README: a token is reused until shortly before it expires, here a quarter of its lifetime. */
const FRESH_MS = LIFETIME_SECONDS * 750;
/** When the sandbox had written each answer (its onRequest runs after the reply is written). */
const answeredAt = new WeakMap<RecordedRequest, number>();
const sandbox = useSandbox({ streams: 10, tokenLifetime: LIFETIME_SECONDS, onRequest: (record) => answeredAt.set(record, Date.now()) });
let dir: string;
let cleanup: () => void;
beforeEach(() => ({ dir, cleanup } = tempConfigDir()));
afterEach(() => {
  sandbox().clearFaults();
  cleanup();
});

const idm = (args: string[]) => runIdm(args, { configDir: dir, env: credentialsEnv(sandbox()) });

const bearer = (request: RecordedRequest) => /^Bearer (\S+)$/.exec(request.headers.authorization ?? '')?.[1];

/** The listing requests since `from`, the token each carried, and when its answer was written. */
function listings(sb: Sandbox, from: number) {
  return sb.requests.slice(from).filter((r) => r.path === '/api/v2/event-streams').map((r) => ({ ...r, token: bearer(r)!, answeredAt: answeredAt.get(r) }));
}

describe('a run that outlives its token', () => {
  it.each([
    ['streams list --all', ['streams', 'list', '--all', '--take', '2']],
    ['api --paginate', ['api', 'GET', '/event-streams', '--paginate', '--query', 'take=2']],
  ])('%s: every page, each token fetched once and used, none sent expired', async (_name, args) => {
    const expected = ((await direct(sandbox(), '/event-streams?take=100')).body.eventStreams as Array<{ id: string }>).map((s) => s.id);
    expect(expected).toHaveLength(16);
    sandbox().addFault({ kind: 'latency', ms: 1200, path: '/api/v2/event-streams', count: Infinity });
    const issued = sandbox().tokensIssued();
    const from = sandbox().requests.length;

    const result = await idm(args);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const ids = args[0] === 'api' ? (JSON.parse(result.stdout).eventStreams as Array<{ id: string }>).map((s) => s.id) : result.stdout.trimEnd().split('\n').map((line) => line.split('\t')[0]);
    expect(ids).toEqual(expected);

    const seen = listings(sandbox(), from);
    const used = [...new Set(seen.map((r) => r.token))];
    // 8 pages of at least 1.2 s each outlive a token: a new one was fetched, and none was wasted.
    expect(used.length).toBeGreaterThanOrEqual(2);
    expect(sandbox().tokensIssued() - issued).toBe(used.length);
    // A token serves only while fresh (the first 6 of its 8 s): the n-th token used is the n-th asked
    // for, and idm chooses the token for a page only once it has the answer to the page before (it
    // needs its cursor). So for the k-th page, sent with token T:
    //   answer k-1 written  <=  idm's check of T  <  T obtained + 6 s  <=  T's request reached the sandbox + 6 s
    // Each step holds on any machine, however loaded: no margin for speed. A run that keeps a token
    // until it expires (or until the sandbox refuses it) still checks it after page 6 (>= 6 x 1.2 s), and fails here.
    const asked = sandbox().requests.slice(from).filter((r) => r.path === '/oauth/token');
    expect(asked).toHaveLength(used.length);
    seen.forEach((request, k) => {
      if (k === 0) return;
      const previous = seen[k - 1]!.answeredAt;
      expect(previous).toBeDefined();
      expect(previous!, `page request ${k + 1} was chosen at least ${previous! - asked[used.indexOf(request.token)]!.at} ms after its token was asked for`).toBeLessThan(asked[used.indexOf(request.token)]!.at + FRESH_MS);
    });
    // A token may still expire during the 1.2 s the sandbox takes: then one retry with a new token.
    seen.forEach((request, i) => {
      if (request.status !== 401) return;
      const retry = seen[i + 1]!;
      expect([retry.url, retry.status]).toEqual([request.url, 200]);
      expect(retry.token).not.toBe(request.token);
    });
    expect(seen.filter((r) => r.status !== 401).map((r) => r.status)).toEqual(Array(8).fill(200));
  });

  it('a 401 on the token just fetched is still exit 4 with the credentials hint: one token request, no retry', async () => {
    sandbox().addFault({ kind: 'status', status: 401, path: '/api/v2/event-streams', count: Infinity });
    const issued = sandbox().tokensIssued();
    const from = sandbox().requests.length;
    const result = await idm(['streams', 'list', '--all', '--take', '2']);
    expect(result.code).toBe(4);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/^Error: Could not list event streams: .*\(401 unauthorized\)\./);
    expect(result.stderr).toContain('correct IDM_CLIENT_ID and IDM_CLIENT_SECRET');
    expect(sandbox().tokensIssued() - issued).toBe(1);
    expect(listings(sandbox(), from)).toHaveLength(1);
  });
});
