// The statistics window with the sandbox's clock set (SandboxOptions.now): the recorded rules,
// without depending on the hour the test runs at.
import { beforeAll, describe, expect, it } from 'vitest';
import { call, getToken, useSandbox } from '../helpers/sandbox.js';

const NOW = Date.parse('2025-07-29T04:31:28.381Z'); // the time of a recorded call
const sb = useSandbox({ now: () => NOW });
let token = '';
beforeAll(async () => {
  token = await getToken(sb());
});
const stats = (query = '') => call(sb(), 'GET', `/api/v2/event-streams/est_demoInboxBearer0000000/stats${query}`, { token });

describe('stats windows, as recorded', () => {
  it('no query: 14 days to the next full hour, 15 daily buckets at 00:00Z', async () => {
    const res = await stats();
    expect(res.body.window).toEqual({ date_from: '2025-07-15T04:00:00.000Z', date_to: '2025-07-29T05:00:00.000Z', bucket_interval: { scale_factor: 86400 } });
    expect(res.body.buckets).toHaveLength(15);
    expect(res.body.buckets[0]).toBe('2025-07-15T00:00:00.000Z');
    expect(res.body.buckets.at(-1)).toBe('2025-07-29T00:00:00.000Z');
  });

  it('a 20-minute window: one hourly bucket (offsets allowed)', async () => {
    const res = await stats('?date_from=2025-07-29T09:51:54%2B05:30&date_to=2025-07-29T10:11:54%2B05:30');
    expect(res.body.window).toEqual({ date_from: '2025-07-29T04:00:00.000Z', date_to: '2025-07-29T04:00:00.000Z', bucket_interval: { scale_factor: 3600 } });
    expect(res.body.buckets).toEqual(['2025-07-29T04:00:00.000Z']);
  });

  it('a window across two hours: two hourly buckets', async () => {
    const res = await stats('?date_from=2025-08-01T11:23:42%2B05:30&date_to=2025-08-01T11:43:42%2B05:30');
    expect(res.body.buckets).toEqual(['2025-08-01T05:00:00.000Z', '2025-08-01T06:00:00.000Z']);
  });

  it('a bad time: 400', async () => {
    expect((await stats('?date_from=yesterday')).status).toBe(400);
  });

  // Date.parse read these: a time without an offset in the sandbox machine's zone (another window
  // under TZ=Pacific/Chatham than under UTC), a day that does not exist as the next month's.
  it.each([
    ['no offset', '2025-07-29T04:00:00'],
    ['no offset, no seconds', '2025-07-29T04:00'],
    ['a date alone', '2025-07-29'],
    ['30 February', '2025-02-30T00:00:00Z'],
    ['31 June', '2025-06-31T00:00:00+05:30'],
    ['hour 24', '2025-07-28T24:00:00Z'],
    ['offset of 24 hours', '2025-07-29T04:00:00+24:00'],
  ])('a time RFC 3339 does not have (%s): 400, for date_from and date_to', async (_name, time) => {
    for (const name of ['date_from', 'date_to']) {
      const res = await stats(`?${name}=${encodeURIComponent(time)}`);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ errorCode: 'invalid_query_string', message: `Query validation error: '${name}' must be an RFC 3339 date-time.` });
    }
  });

  it('an RFC 3339 time in lower case, with fractions: taken', async () => {
    const res = await stats(`?date_from=${encodeURIComponent('2025-07-29t09:51:54.5+05:30')}&date_to=2025-07-29t04:40:00.123z`);
    expect(res.status).toBe(200);
    expect(res.body.window.date_from).toBe('2025-07-29T04:00:00.000Z');
  });
});

describe('stats windows: bounded', () => {
  it('a window of 366 days is answered in daily buckets', async () => {
    const res = await stats('?date_from=2024-07-29T04:00:00Z&date_to=2025-07-30T04:00:00Z');
    expect(res.status).toBe(200);
    expect(res.body.buckets).toHaveLength(367);
  });

  it('a window of thousands of years is a 400 at once, not millions of buckets', async () => {
    const res = await stats('?date_from=0001-01-01T00:00:00Z&date_to=9999-12-31T00:00:00Z');
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      statusCode: 400,
      error: 'Bad Request',
      message: "Query validation error: 'date_from' must be at most 366 days before date_to.",
      errorCode: 'invalid_query_string',
    });
    // date_from alone counts to now: the error names now, not the date_to that was not sent.
    const alone = await stats('?date_from=1990-01-01T00:00:00Z');
    expect(alone.status).toBe(400);
    expect(alone.body.message).toBe("Query validation error: 'date_from' must be at most 366 days before now.");
  });
});

describe('stats windows: one end given', () => {
  it('date_to alone: the 14 days before it (the default window, ending there), never a 400 naming the date_from not sent', async () => {
    const past = await stats('?date_to=2025-07-01T10:30:00Z'); // weeks before the sandbox's now
    expect(past.status).toBe(200);
    expect(past.body.window).toEqual({ date_from: '2025-06-17T10:00:00.000Z', date_to: '2025-07-01T10:00:00.000Z', bucket_interval: { scale_factor: 86400 } });
    expect(past.body.buckets).toHaveLength(15);
    expect((await stats('?date_to=2999-01-01T00:00:00Z')).body.window.date_from).toBe('2998-12-18T00:00:00.000Z');
  });

  it('date_from alone after now: the 400 says after now, not after the date_to that was not sent', async () => {
    const res = await stats('?date_from=2025-07-30T00:00:00Z');
    expect(res.status).toBe(400);
    expect(res.body.message).toBe("Query validation error: 'date_from' must not be after now.");
  });
});
