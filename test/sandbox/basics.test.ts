import { describe, expect, it } from 'vitest';
import { EventStreamSchema } from '../../src/schemas/index.js';
import { call, getToken, useSandbox } from '../helpers/sandbox.js';

const sb = useSandbox();

describe('sandbox basics', () => {
  it('issues a token and lists the demo streams as exact records', async () => {
    const token = await getToken(sb());
    const res = await call(sb(), 'GET', '/api/v2/event-streams', { token });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(res.body.eventStreams.length).toBeGreaterThanOrEqual(6);
    for (const stream of res.body.eventStreams) expect(EventStreamSchema.safeParse(stream).success).toBe(true);
    expect(res.body).not.toHaveProperty('next');
    expect(sb().tokensIssued()).toBe(1);
    expect(sb().requests.map((r) => `${r.method} ${r.path} ${r.status}`)).toEqual([
      'POST /oauth/token 200',
      'GET /api/v2/event-streams 200',
    ]);
  });
});

describe('the paths outside /api/v2', () => {
  // `curl -X POST "$url/.well-known/jwks.json"` was answered 404 'Not Found', as if the path did not
  // exist, where the tenant's routes and the control paths answer 405 with Allow.
  it.each(['/', '/.well-known/jwks.json'])('%s: GET and HEAD answer; another method is 405 with Allow: GET, HEAD', async (path) => {
    expect((await call(sb(), 'GET', path)).status).toBe(200);
    expect((await call(sb(), 'HEAD', path)).status).toBe(200);
    for (const method of ['POST', 'DELETE']) {
      const res = await call(sb(), method, path);
      expect(res.status).toBe(405);
      expect(res.headers.get('allow')).toBe('GET, HEAD');
      expect(res.body).toEqual({ statusCode: 405, error: 'Method Not Allowed', message: `Method Not Allowed. ${path} takes GET, HEAD` });
    }
    expect((await call(sb(), 'POST', '/nothing-here')).status).toBe(404);
  });
});
