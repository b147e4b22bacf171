// Event streams over real HTTP: pagination, lifecycle, validation, secrets.
import { beforeAll, describe, expect, it } from 'vitest';
import { EventStreamSchema } from '../../src/schemas/index.js';
import { call, getToken, useSandbox } from '../helpers/sandbox.js';

const sb = useSandbox({ streams: 250 });
let token = '';
beforeAll(async () => {
  token = await getToken(sb());
});
const list = (query = '') => call(sb(), 'GET', `/api/v2/event-streams${query}`, { token });

const webhook = (authorization: Record<string, string>, endpoint = 'https://127.0.0.1:9/hook') => ({
  name: 'created-by-test',
  subscriptions: [{ event_type: 'user.created' }],
  destination: { type: 'webhook', configuration: { webhook_endpoint: endpoint, webhook_authorization: authorization } },
});

describe('GET /event-streams: pagination', () => {
  it('pages through every stream exactly once; next is absent on the last page', async () => {
    const seen: string[] = [];
    let from: string | undefined;
    let pages = 0;
    for (;;) {
      const res = await list(`?take=100${from ? `&from=${encodeURIComponent(from)}` : ''}`);
      expect(res.status).toBe(200);
      pages += 1;
      for (const stream of res.body.eventStreams) {
        expect(EventStreamSchema.safeParse(stream).success).toBe(true);
        seen.push(stream.id);
      }
      if (!('next' in res.body)) break;
      expect(res.body.next).toMatch(/^[A-Za-z0-9_-]+$/);
      from = res.body.next;
    }
    expect(pages).toBe(3); // 6 demo + 250 generated
    expect(seen).toHaveLength(256);
    expect(new Set(seen).size).toBe(256);
  });

  it('takes 50 by default, and from 1 to 100', async () => {
    expect((await list()).body.eventStreams).toHaveLength(50);
    expect((await list('?take=1')).body.eventStreams).toHaveLength(1);
    expect((await list('?take=100')).body.eventStreams).toHaveLength(100);
  });

  it.each(['take=0', 'take=101', 'take=abc', 'take=1.5', 'take=', 'take=5&take=6', 'from=', 'from=garbage', 'from=%2F%2F', 'unknown=1'])(
    '400 for %s',
    async (query) => {
      const res = await list(`?${query}`);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ statusCode: 400, error: 'Bad Request', message: 'Invalid query string paging options', errorCode: 'invalid_query_string' });
    },
  );

  it('a cursor stays valid when the stream it points after is deleted', async () => {
    const first = await list('?take=2');
    const [, second] = first.body.eventStreams;
    const created = await call(sb(), 'POST', '/api/v2/event-streams', { token, body: webhook({ method: 'bearer', token: 't' }) });
    const page = await list(`?take=1&from=${first.body.next}`);
    const third = page.body.eventStreams[0].id;
    expect(third).not.toBe(second.id);
    await call(sb(), 'DELETE', `/api/v2/event-streams/${created.body.id}`, { token });
  });
});

describe('stream lifecycle', () => {
  it('creates (201), reads, updates and deletes a stream; secrets are never returned', async () => {
    const created = await call(sb(), 'POST', '/api/v2/event-streams', {
      token,
      body: webhook({ method: 'basic', username: 'hook-user', password: 'secret-password-1' }),
    });
    expect(created.status).toBe(201);
    expect(created.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(EventStreamSchema.parse(created.body)).toEqual(created.body);
    expect(created.body.id).toMatch(/^est_[A-Za-z0-9]{22}$/);
    expect(created.body.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(created.body.status).toBe('enabled');
    expect(created.body.destination.configuration.webhook_authorization).toEqual({ method: 'basic', username: 'hook-user' });
    expect(created.text).not.toContain('secret-password-1');
    const id = created.body.id as string;

    const read = await call(sb(), 'GET', `/api/v2/event-streams/${id}`, { token });
    expect(read.status).toBe(200);
    expect(read.body).toEqual(created.body);

    const patched = await call(sb(), 'PATCH', `/api/v2/event-streams/${id}`, {
      token,
      body: { status: 'disabled', destination: webhook({ method: 'custom_header', header_key: 'x-hook', header_value: 'secret-header-2' }).destination },
    });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ id, status: 'disabled', name: 'created-by-test' });
    expect(patched.body.destination.configuration.webhook_authorization).toEqual({ method: 'custom_header', header_key: 'x-hook' });
    expect(patched.text).not.toContain('secret-header-2');

    let all = '';
    for (let from: string | undefined, more = true; more; ) {
      const page = await list(`?take=100${from ? `&from=${from}` : ''}`);
      all += page.text;
      from = page.body.next;
      more = from !== undefined;
    }
    expect(all).toContain(id);
    expect(all).not.toMatch(/secret-password-1|secret-header-2|"password"|"token"|"header_value"/);

    const deleted = await call(sb(), 'DELETE', `/api/v2/event-streams/${id}`, { token });
    expect(deleted.status).toBe(204);
    expect(deleted.text).toBe('');
    const gone = await call(sb(), 'GET', `/api/v2/event-streams/${id}`, { token });
    expect(gone.status).toBe(404);
    expect(gone.body).toEqual({ statusCode: 404, error: 'Not Found', message: 'The requested stream does not exist.' });
  });

  it('creates eventbus and action streams with the given status', async () => {
    const res = await call(sb(), 'POST', '/api/v2/event-streams', {
      token,
      body: {
        name: 'bus',
        status: 'disabled',
        subscriptions: [{ event_type: 'group.created' }],
        destination: { type: 'eventbus', configuration: { cloud_account_id: '000011112222', cloud_region: 'eu-west-3' } },
      },
    });
    expect(res.status).toBe(201);
    expect(res.body.status).toBe('disabled');
    // The service names the partner event source in its answer, in the recorded form, and keeps it.
    expect(res.body.destination).toEqual({
      type: 'eventbus',
      configuration: { cloud_account_id: '000011112222', cloud_region: 'eu-west-3', cloud_partner_event_source: expect.stringMatching(/^cloud\.partner\/platform\.com\/sandbox-[0-9a-f-]{36}\/platform\.events$/) },
    });
    expect((await call(sb(), 'GET', `/api/v2/event-streams/${res.body.id}`, { token })).body).toEqual(res.body);
    const action = await call(sb(), 'POST', '/api/v2/event-streams', {
      token,
      body: { name: 'act', subscriptions: [{ event_type: 'user.deleted' }], destination: { type: 'action', configuration: { action_id: 'a1' } } },
    });
    expect(action.status).toBe(201);
  });

  it('creates a stream from a destination alone (the only required key): the record has no name and no subscriptions', async () => {
    const res = await call(sb(), 'POST', '/api/v2/event-streams', { token, body: { destination: { type: 'action', configuration: { action_id: 'a' } } } });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.stringMatching(/^est_[A-Za-z0-9]{22}$/),
      status: 'enabled',
      destination: { type: 'action', configuration: { action_id: 'a' } },
      created_at: expect.any(String),
      updated_at: res.body.created_at,
    });
    expect(EventStreamSchema.parse(res.body)).toEqual(res.body);
    expect((await call(sb(), 'GET', `/api/v2/event-streams/${res.body.id}`, { token })).body).toEqual(res.body);
    // A name or event types can be given later.
    const named = await call(sb(), 'PATCH', `/api/v2/event-streams/${res.body.id}`, { token, body: { name: 'named-later', subscriptions: [{ event_type: 'user.created' }] } });
    expect(named.body).toMatchObject({ name: 'named-later', subscriptions: [{ event_type: 'user.created' }] });
  });

  it('409 for a name in use (create or rename), with the service\'s body; the stream\'s own name and a freed name are taken', async () => {
    const conflict = {
      statusCode: 409,
      error: 'Conflict',
      message: 'You have reached the maximum number of event streams for your account OR Event stream name already in use.',
    };
    const body = (name: string) => ({ name, subscriptions: [{ event_type: 'user.created' }], destination: { type: 'action', configuration: { action_id: 'a' } } });
    const first = await call(sb(), 'POST', '/api/v2/event-streams', { token, body: body('unique-name') });
    expect(first.status).toBe(201);
    const before = sb().stats().streams;
    const again = await call(sb(), 'POST', '/api/v2/event-streams', { token, body: body('unique-name') });
    expect(again.status).toBe(409);
    expect(again.body).toEqual(conflict);
    expect(sb().stats().streams).toBe(before);

    const other = await call(sb(), 'POST', '/api/v2/event-streams', { token, body: body('other-name') });
    const rename = await call(sb(), 'PATCH', `/api/v2/event-streams/${other.body.id}`, { token, body: { name: 'unique-name', status: 'disabled' } });
    expect(rename.status).toBe(409);
    expect(rename.body).toEqual(conflict);
    expect((await call(sb(), 'GET', `/api/v2/event-streams/${other.body.id}`, { token })).body).toEqual(other.body);
    // Recorded: a PATCH that sends the stream's own name is a 200.
    expect((await call(sb(), 'PATCH', `/api/v2/event-streams/${other.body.id}`, { token, body: { name: 'other-name' } })).status).toBe(200);

    expect((await call(sb(), 'DELETE', `/api/v2/event-streams/${first.body.id}`, { token })).status).toBe(204);
    expect((await call(sb(), 'POST', '/api/v2/event-streams', { token, body: body('unique-name') })).status).toBe(201);
  });

  it('answers the real 400 invalid_uri for an id that is not 26 characters', async () => {
    const res = await call(sb(), 'GET', '/api/v2/event-streams/est_invalid_id_1234567890', { token });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      statusCode: 400,
      error: 'Bad Request',
      message:
        "Path validation error: 'Object didn't pass validation for format event-stream-id: est_invalid_id_1234567890' on property id (Unique identifier for the event stream).",
      errorCode: 'invalid_uri',
    });
  });
});

describe('stream validation', () => {
  const invalid: Array<[string, unknown, string]> = [
    ['a name that is too long', { ...webhook({ method: 'bearer', token: 't' }), name: 'x'.repeat(129) }, 'on property name.'],
    ['no subscriptions', { ...webhook({ method: 'bearer', token: 't' }), subscriptions: [] }, 'on property subscriptions.'],
    ['an http endpoint', webhook({ method: 'bearer', token: 't' }, 'http://127.0.0.1/hook'), 'on property destination.configuration.webhook_endpoint.'],
    ['a username with a colon', webhook({ method: 'basic', username: 'a:b', password: 'p' }), 'on property destination.configuration.webhook_authorization.username.'],
    ['a missing secret', webhook({ method: 'bearer' }), 'on property destination.configuration.webhook_authorization.token.'],
    ['an unknown field', { ...webhook({ method: 'bearer', token: 't' }), color: 'red' }, "'Additional properties not allowed: color'."],
    [
      'an account id that is not 12 digits',
      { name: 'b', subscriptions: [{ event_type: 'user.created' }], destination: { type: 'eventbus', configuration: { cloud_account_id: '123', cloud_region: 'us-east-1' } } },
      'on property destination.configuration.cloud_account_id.',
    ],
    ['a missing destination', { name: 'no-destination', subscriptions: [{ event_type: 'user.created' }] }, 'on property destination.'],
  ];
  it.each(invalid)('400 invalid_body naming the field for %s', async (_label, body, naming) => {
    const before = (await list('?take=100')).body.eventStreams.length;
    const res = await call(sb(), 'POST', '/api/v2/event-streams', { token, body });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ statusCode: 400, error: 'Bad Request', errorCode: 'invalid_body' });
    expect(res.body.message).toMatch(/^Payload validation error: /);
    expect(res.body.message).toContain(naming);
    expect((await list('?take=100')).body.eventStreams.length).toBe(before);
  });

  it('400 for a PATCH with a bad field, and nothing changes', async () => {
    const res = await call(sb(), 'PATCH', '/api/v2/event-streams/est_demoEventbus0000000000', { token, body: { status: 'paused' } });
    expect(res.status).toBe(400);
    expect(res.body.message).toContain('on property status.');
    expect((await call(sb(), 'GET', '/api/v2/event-streams/est_demoEventbus0000000000', { token })).body.status).toBe('enabled');
  });

  it('400 for a body that is not JSON, 415 for one not sent as JSON', async () => {
    const bad = await call(sb(), 'POST', '/api/v2/event-streams', { token, body: '{"name":', headers: { 'Content-Type': 'application/json' } });
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ statusCode: 400, error: 'Bad Request', message: 'Invalid request payload JSON format' });
    const text = await call(sb(), 'POST', '/api/v2/event-streams', { token, body: 'name=x', headers: { 'Content-Type': 'text/plain' } });
    expect(text.status).toBe(415);
  });

  // What `curl -d '{…}'` sends without -H: the answer was a bare 'Unsupported Media Type'.
  it.each([
    ['application/x-www-form-urlencoded', 'as application/x-www-form-urlencoded'],
    ['text/plain; charset=utf-8', 'as text/plain'],
    ['', 'without a Content-Type'],
  ])('415 for a JSON body sent as %j names the type sent and the one to send', async (type, as) => {
    const body = JSON.stringify({ destination: { type: 'action', configuration: { action_id: 'a' } } });
    const res = await call(sb(), 'POST', '/api/v2/event-streams', { token, body, headers: { 'Content-Type': type } });
    expect(res.status).toBe(415);
    expect(res.body).toEqual({
      statusCode: 415,
      error: 'Unsupported Media Type',
      message: `Unsupported Media Type: the body was sent ${as}; send it as JSON with Content-Type: application/json.`,
    });
  });
});

describe('generated streams', () => {
  it('10,000 generated streams are valid records and page through in order', async () => {
    const { startSandbox } = await import('../../src/sandbox/index.js');
    const big = await startSandbox({ streams: 10_000, seed: {} });
    try {
      const bigToken = await getToken(big);
      const ids = new Set<string>();
      let from: string | undefined;
      do {
        const res = await call(big, 'GET', `/api/v2/event-streams?take=100${from ? `&from=${from}` : ''}`, { token: bigToken });
        for (const stream of res.body.eventStreams) ids.add(stream.id);
        if (ids.size === 100) for (const stream of res.body.eventStreams) expect(EventStreamSchema.safeParse(stream).success).toBe(true);
        from = res.body.next;
      } while (from);
      expect(ids.size).toBe(10_000);
    } finally {
      await big.close();
    }
  });
});
