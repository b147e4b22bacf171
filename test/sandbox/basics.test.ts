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
