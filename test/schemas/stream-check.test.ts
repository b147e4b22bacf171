// eventStreamProblem (src/schemas/index.ts) and the sandbox's streamProblem (src/sandbox/state.ts)
// check by hand what EventStreamSchema and SavedStreamSchema check, for speed at 100,000 saved
// streams. Here the two answer the same for valid records (built here, and the sandbox's own as it
// saves them), for every field of each made wrong in turn (removed, or replaced by values of every
// kind, some valid elsewhere), and for an unknown field added to each object: they cannot drift apart.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox } from '../../src/sandbox/index.js';
import { SavedStreamSchema, streamProblem } from '../../src/sandbox/state.js';
import { EventStreamSchema, eventStreamProblem } from '../../src/schemas/index.js';

const T = '2025-01-02T03:04:05.678Z';
const record = (destination: unknown, extra: Record<string, unknown> = {}) => ({
  id: 'est_2mNwzVbDq8sXe4RtY6uJkL',
  name: 'orders',
  status: 'enabled',
  subscriptions: [{ event_type: 'user.created' }, { event_type: 'group.deleted' }],
  destination,
  created_at: T,
  updated_at: '2025-01-02T04:04:05+01:00',
  ...extra,
});
const webhook = (authorization: unknown) => ({ type: 'webhook', configuration: { webhook_endpoint: 'https://hooks.example.com/in', webhook_authorization: authorization } });

const BUILT = [
  record(webhook({ method: 'bearer' })),
  record(webhook({ method: 'basic', username: 'joe' }), { status: 'disabled', name: 'x'.repeat(128) }),
  record(webhook({ method: 'custom_header', header_key: 'X-Token' })),
  record({ type: 'eventbus', configuration: { cloud_account_id: '123456789012', cloud_region: 'us-east-1' } }),
  record({ type: 'eventbus', configuration: { cloud_account_id: '123456789012', cloud_region: 'eu-west-1', cloud_partner_event_source: 'aws.partner/x' } }),
  record({ type: 'action', configuration: { action_id: 'act_1' } }, { subscriptions: [{ event_type: 'a' }] }),
];

/** Values of every kind, some of them valid somewhere in a record. */
const REPLACEMENTS: unknown[] = [
  null, 0, 1, true, '', 'x', ':', 'a:b', 'x'.repeat(129), [], {}, [{}], [null], ['user.created'], [{ event_type: '' }],
  'enabled', 'disabled', 'paused', 'webhook', 'eventbus', 'action', 'bearer', 'basic', 'custom_header', 'X Bad Header',
  'https://', 'http://hooks.example.com', 'us-east-1', 'mars-north-1', '123456789012', '12345678901',
  '2025-01-01T00:00:00Z', '2025-02-30T00:00:00Z', '2025-01-01T00:00:00', '2025-01-01', 'est_aaaaaaaaaaaaaaaaaaaaaa', 'est_aaaaaaaaaaaaaaaaaaaaa',
  { method: 'bearer' }, { event_type: 'user.created' }, { type: 'action', configuration: { action_id: 'a' } },
];

type Json = unknown;

/** Every variant of `value`: each field (at any depth) removed or replaced in turn, and an unknown field added to each object. */
function variants(value: Json, path = ''): Array<{ path: string; value: Json }> {
  const out: Array<{ path: string; value: Json }> = [];
  if (Array.isArray(value)) {
    value.forEach((item, index) => {
      const at = (replacement: Json) => value.map((one, i) => (i === index ? replacement : one));
      out.push({ path: `${path}[${index}] removed`, value: value.filter((_, i) => i !== index) });
      for (const replacement of REPLACEMENTS) out.push({ path: `${path}[${index}] = ${JSON.stringify(replacement)}`, value: at(replacement) });
      for (const inner of variants(item, `${path}[${index}]`)) out.push({ path: inner.path, value: at(inner.value) });
    });
  } else if (value !== null && typeof value === 'object') {
    const object = value as Record<string, Json>;
    out.push({ path: `${path}.unknown added`, value: { ...object, unknown: 1 } });
    for (const key of Object.keys(object)) {
      const { [key]: _removed, ...without } = object;
      out.push({ path: `${path}.${key} removed`, value: without });
      for (const replacement of REPLACEMENTS) out.push({ path: `${path}.${key} = ${JSON.stringify(replacement)}`, value: { ...object, [key]: replacement } });
      for (const inner of variants(object[key], `${path}.${key}`)) out.push({ path: inner.path, value: { ...object, [key]: inner.value } });
    }
  }
  return out;
}

/** The variants on which the hand check and the schema disagree (none, when they agree). */
function disagreements(samples: Json[], byHand: (value: Json) => string | undefined, schema: { safeParse(value: Json): { success: boolean } }) {
  const found: string[] = [];
  let refused = 0;
  for (const sample of samples) {
    for (const { path, value } of [{ path: '(as it is)', value: sample }, ...variants(sample)]) {
      const hand = byHand(value);
      const accepted = schema.safeParse(value).success;
      if ((hand === undefined) !== accepted) found.push(`${path}: the schema ${accepted ? 'accepts' : 'refuses'}, the hand check ${hand === undefined ? 'accepts' : `says "${hand}"`}`);
      if (!accepted) refused++;
    }
  }
  return { found, refused };
}

let saved: Json[] = [];
let dir: string;
beforeAll(async () => {
  // The sandbox's own streams as it saves them: the demo seed's (each destination and method) and generated ones.
  dir = mkdtempSync(join(tmpdir(), 'idm-stream-check-'));
  await (await startSandbox({ stateDir: join(dir, 'state'), streams: 6 })).close();
  saved = JSON.parse(readFileSync(join(dir, 'state', 'state.json'), 'utf8')).streams;
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the hand checks and the schemas give the same answers', () => {
  it('the samples: valid as they are, to both', () => {
    expect(saved.length).toBeGreaterThanOrEqual(10);
    for (const sample of [...BUILT, ...saved.map((entry) => (entry as { record: Json }).record)]) {
      expect(EventStreamSchema.safeParse(sample).success).toBe(true);
      expect(eventStreamProblem(sample)).toBeUndefined();
    }
  });

  it('eventStreamProblem and EventStreamSchema: each field of each record wrong in turn, and unknown fields', () => {
    const { found, refused } = disagreements([...BUILT, ...saved.map((entry) => (entry as { record: Json }).record)], eventStreamProblem, EventStreamSchema);
    expect(found).toEqual([]);
    expect(refused).toBeGreaterThan(1000); // the variants do make records wrong
  });

  it('streamProblem and SavedStreamSchema: the saved streams (record and secret), each field wrong in turn', () => {
    const { found } = disagreements(saved, streamProblem, SavedStreamSchema);
    expect(found).toEqual([]);
  });

  it('a wrong field is named', () => {
    expect(eventStreamProblem({ ...BUILT[0], status: 'paused' })).toBe('status must be enabled or disabled');
    expect(eventStreamProblem(record(webhook({ method: 'basic', username: 'a:b' })))).toBe('destination.configuration.webhook_authorization.username must be 1 to 128 characters without a colon');
    expect(streamProblem({ record: { ...BUILT[0], extra: 1 } })).toBe('record.extra is not a field');
    expect(streamProblem({ record: BUILT[0], secret: 1 })).toBe('secret must be a string');
  });
});
