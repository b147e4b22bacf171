// The service's limit on the number of streams (wire-facts, Create: 409 "You have reached the
// maximum number of event streams for your account OR Event stream name already in use.", the number
// not published): off by default; `maxStreams` (seed, option, --max-streams) sets it. Seeded streams
// count; a delete makes room again; a tenant that would start over it is refused.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { call, getToken, useSandbox } from '../helpers/sandbox.js';

const CONFLICT = {
  statusCode: 409,
  error: 'Conflict',
  message: 'You have reached the maximum number of event streams for your account OR Event stream name already in use.',
};
const action = (name: string) => ({ name, subscriptions: [{ event_type: 'user.created' }], destination: { type: 'action', configuration: { action_id: 'a-1' } } });
const seeded = { streams: [action('seeded')], maxStreams: 2 };

describe('a seed with maxStreams 2 and one stream', () => {
  const sb = useSandbox({ seed: seeded });
  let token = '';
  beforeAll(async () => {
    token = await getToken(sb());
  });
  const create = (name: string) => call(sb(), 'POST', '/api/v2/event-streams', { token, body: action(name) });

  it('takes one more, then answers the service\'s 409 (a new name too); a delete makes room again', async () => {
    const second = await create('second');
    expect(second.status).toBe(201);
    const third = await create('third');
    expect([third.status, third.headers.get('content-type'), third.body]).toEqual([409, 'application/json; charset=utf-8', CONFLICT]);
    expect((await call(sb(), 'GET', '/api/v2/event-streams', { token })).body.eventStreams.map((one: { name: string }) => one.name)).toEqual(['seeded', 'second']);
    // A change is no create: renaming at the limit is allowed.
    expect((await call(sb(), 'PATCH', `/api/v2/event-streams/${second.body.id}`, { token, body: { name: 'renamed' } })).status).toBe(200);
    expect((await call(sb(), 'DELETE', `/api/v2/event-streams/${second.body.id}`, { token })).status).toBe(204);
    expect((await create('third')).status).toBe(201);
  });
});

describe('without a limit (the default), and the option over the seed', () => {
  const sandboxes: Sandbox[] = [];
  afterAll(async () => {
    await Promise.all(sandboxes.map((one) => one.close()));
  });
  const create = async (sandbox: Sandbox, name: string) => call(sandbox, 'POST', '/api/v2/event-streams', { token: await getToken(sandbox), body: action(name) });

  it('the demo seed and 300 generated streams take more', async () => {
    const sandbox = await startSandbox({ streams: 300 });
    sandboxes.push(sandbox);
    expect((await create(sandbox, 'one-more')).status).toBe(201);
  });

  it('maxStreams as an option overrides the seed\'s', async () => {
    const sandbox = await startSandbox({ seed: { ...seeded, maxStreams: 5 }, maxStreams: 1 });
    sandboxes.push(sandbox);
    expect((await create(sandbox, 'over')).body).toEqual(CONFLICT);
  });

  it('--state-dir keeps the limit: a restart from the directory alone still answers the 409', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'idm-limit-'));
    try {
      const first = await startSandbox({ seed: { streams: [action('seeded')], maxStreams: 1 }, stateDir: dir });
      expect((await create(first, 'over')).body).toEqual(CONFLICT);
      await first.close();
      // On any free port: the saved one may have been given to another process since the stop.
      // Closed here, before its directory is removed: on a new port, it saves the tenant when it closes.
      const again = await startSandbox({ stateDir: dir, port: 0 });
      try {
        expect((await create(again, 'over')).body).toEqual(CONFLICT);
      } finally {
        await again.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a tenant that would start over its limit is refused, from the option, the seed or a restart, before anything is generated', async () => {
    // Started at the limit is allowed (above); over it, every create would be refused from the start.
    await expect(startSandbox({ maxStreams: 3, streams: 10 })).rejects.toThrow(
      expect.objectContaining({ name: 'StreamLimitError', maxStreams: 3, count: 16, streams: { seeded: 6, generated: 10 } }),
    );
    await expect(startSandbox({ seed: { streams: [action('one'), action('two')], maxStreams: 1 } })).rejects.toThrow(
      'maxStreams 1 is less than the 2 streams the tenant would start with (2 seeded, 0 generated)',
    );
    // A million would take seconds to make: refused at once.
    await expect(startSandbox({ seed: {}, maxStreams: 1, streams: 1_000_000 })).rejects.toThrow(expect.objectContaining({ count: 1_000_000 }));
    const dir = mkdtempSync(join(tmpdir(), 'idm-limit-'));
    try {
      await (await startSandbox({ seed: { streams: [action('one'), action('two')] }, stateDir: dir })).close();
      await expect(startSandbox({ stateDir: dir, maxStreams: 1 })).rejects.toThrow(expect.objectContaining({ name: 'StreamLimitError', streams: { saved: 2 } }));
      await (await startSandbox({ stateDir: dir, maxStreams: 2, port: 0 })).close(); // any free port, as above
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a maxStreams that is not a positive whole number is refused', async () => {
    await expect(startSandbox({ maxStreams: 0 })).rejects.toThrow(/maxStreams/);
    await expect(startSandbox({ seed: { maxStreams: 1.5 } })).rejects.toThrow(/maxStreams/);
  });
});
