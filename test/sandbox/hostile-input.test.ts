// Hostile input over real HTTP: what a client may send that no real client would. The sandbox answers
// it as an error and stays whole: every later answer, the control endpoints included, still works.
import { request } from 'node:https';
import { beforeAll, describe, expect, it } from 'vitest';
import { DEMO_IDS } from '../../src/sandbox/index.js';
import { call, getToken, useSandbox } from '../helpers/sandbox.js';

const sb = useSandbox();
let token = '';
beforeAll(async () => {
  token = await getToken(sb());
});

const nested = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;

/** POSTs a JSON text to the HTTPS inbox (its certificate is the sandbox's own: not checked here, on loopback). */
function postToInbox(path: string, text: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(`${sb().inboxUrl}${path}`, { method: 'POST', rejectUnauthorized: false, headers: { 'Content-Type': 'application/json' } }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end(text);
  });
}

describe('deeply nested JSON', () => {
  it('a test event whose data nests 100,000 deep is refused (400 invalid_body) and leaves the deliveries readable', async () => {
    const deliveriesBefore = sb().deliveries().length;
    const res = await call(sb(), 'POST', `/api/v2/event-streams/${DEMO_IDS.eventbus}/test`, {
      token,
      body: `{"event_type":"user.created","data":{"a":${nested(100_000)}}}`,
    });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      statusCode: 400,
      error: 'Bad Request',
      message: "Payload validation error: 'The payload is nested deeper than 100 levels'.",
      errorCode: 'invalid_body',
    });
    expect(sb().deliveries()).toHaveLength(deliveriesBefore);
    expect((await call(sb(), 'GET', '/sandbox/deliveries')).status).toBe(200);
  });

  it('data nested 99 deep (100 with the body) is taken, and brackets inside strings do not count', async () => {
    const res = await call(sb(), 'POST', `/api/v2/event-streams/${DEMO_IDS.eventbus}/test`, {
      token,
      body: `{"event_type":"user.created","data":{"a":${nested(98)},"b":"${'['.repeat(500)}"}}`,
    });
    expect(res.status).toBe(202);
    await sb().idle();
    expect((await call(sb(), 'GET', '/sandbox/deliveries')).status).toBe(200);
  });

  it('the inbox keeps a body too deep to answer again as text, and GET /sandbox/inbox still answers', async () => {
    expect(await postToInbox('/deep', nested(100_000))).toBe(200);
    const inbox = await call(sb(), 'GET', '/sandbox/inbox');
    expect(inbox.status).toBe(200);
    const deep = inbox.body.find((entry: { path: string }) => entry.path === '/inbox/deep');
    expect(typeof deep.body).toBe('string');
  });
});
