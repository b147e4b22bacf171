// Records (label/value pairs) and tables at a terminal with what a server may send: fields it names
// itself, wide (CJK) or holding control characters, values with emoji. Through the sandbox, which
// answers such a stream for a path (a fault of kind `status` with a body), over loopback HTTP.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startHarness, TTY_OUT, type Harness } from '../helpers/harness.js';
import { displayWidth } from '../../src/output/width.js';

const STREAM = 'est_demoClosedPort00000000';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());
beforeEach(() => {
  h.sandbox.clearFaults();
  h.mark();
});

const answer = (path: string, body: unknown) =>
  h.sandbox.addFault({ path, method: 'GET', kind: 'status', status: 200, body: JSON.stringify(body), headers: { 'content-type': 'application/json; charset=utf-8' } });

describe('a record at a terminal', () => {
  it('at 40 columns: a value with a word too wide for the value column goes under its label, indented, never cut; one wider than a line starts the line', async () => {
    const url = `https://hooks.example.com/${'p'.repeat(40)}`;
    answer(`/api/v2/event-streams/${STREAM}`, {
      id: STREAM,
      name: 'a name that wraps between its words at forty',
      status: 'enabled',
      destination: { type: 'webhook', configuration: { webhook_endpoint: url, webhook_authorization: { method: 'bearer' } } },
      subscriptions: [{ event_type: 'user.created' }, { event_type: 'organization.member.role.deleted' }],
      created_at: '2026-11-28T11:36:22.804Z',
    });
    const result = await h.idm(['streams', 'show', STREAM], { env: { ...TTY_OUT, COLUMNS: '40' } });
    expect(result.code).toBe(0);
    const lines = result.stdout.trimEnd().split('\n');
    expect(lines.slice(0, 2)).toEqual(['ID', `  ${STREAM}`]);
    expect(lines).toContain('Webhook URL');
    expect(lines[lines.indexOf('Webhook URL') + 1]).toBe(url);
    expect(lines).toContain('  organization.member.role.deleted');
    expect(lines).toContain('Created        2026-11-28T11:36:22.804Z');
    for (const line of lines.filter((text) => text !== url)) expect(displayWidth(line), line).toBeLessThanOrEqual(40);
  });

  it('fields the server named, wide or with control characters: every value starts in the same column', async () => {
    answer(`/api/v2/event-streams/${STREAM}`, {
      id: STREAM,
      name: 'orders',
      status: 'enabled',
      destination: { type: 'action', configuration: { action_id: 'act_1' } },
      名前: 'wide',
      '\u001b\u001b\u001b\u001b': 'escaped',
    });
    const result = await h.idm(['streams', 'show', STREAM], { env: TTY_OUT });
    expect(result.code).toBe(0);
    const lines = result.stdout.trimEnd().split('\n');
    expect(lines).toContain('名前              wide');
    expect(lines).toContain('\\x1b\\x1b\\x1b\\x1b  escaped');
    // The column where each value starts, as a terminal shows it: the same for every field.
    const column = (value: string) => {
      const line = lines.find((text) => text.endsWith(`  ${value}`))!;
      return displayWidth(line.slice(0, line.length - value.length));
    };
    expect(new Set([STREAM, 'orders', 'enabled', 'act_1', 'wide', 'escaped'].map(column))).toEqual(new Set([18]));
  });
});

describe('a record at a terminal, empty values', () => {
  it('a field without a value is its label alone: no trailing spaces on any line', async () => {
    answer(`/api/v2/event-streams/${STREAM}`, { id: STREAM, name: 'orders', status: '', destination: { type: 'action', configuration: { action_id: 'act_1' } } });
    const result = await h.idm(['streams', 'show', STREAM], { env: TTY_OUT });
    expect(result.code).toBe(0);
    const lines = result.stdout.trimEnd().split('\n');
    expect(lines).toEqual(['ID           ' + STREAM, 'Name         orders', 'Status', 'Destination  action', 'Action       act_1', 'Event types', 'Created', 'Updated']);
  });
});

describe('a table at a terminal', () => {
  it('names with emoji that terminals draw two columns wide (✅ ⭐, ⌚): the columns after them line up', async () => {
    const stream = (id: string, name: string) => ({ id, name, status: 'enabled', destination: { type: 'action', configuration: { action_id: 'act_1' } }, subscriptions: [] });
    answer('/api/v2/event-streams', {
      eventStreams: [stream('est_emojiName000000000001', '✅ orders ⭐'), stream('est_emojiName000000000002', '⌚ watch'), stream('est_emojiName000000000003', 'plain-name-12')],
    });
    const result = await h.idm(['streams', 'list'], { env: { ...TTY_OUT, COLUMNS: '160' } });
    expect(result.code).toBe(0);
    const lines = result.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(4);
    // As a terminal draws them: ✅, ⭐ and ⌚ take two columns each, so STATUS starts at column 43 on every line.
    expect(lines.map((line) => line.replace(/\s+action act_1$|\s+DESTINATION.*$/, ''))).toEqual([
      'ID                         NAME           STATUS',
      'est_emojiName000000000001  ✅ orders ⭐   enabled',
      'est_emojiName000000000002  ⌚ watch       enabled',
      'est_emojiName000000000003  plain-name-12  enabled',
    ]);
  });
});

describe('a table at a terminal, skin tones', () => {
  it('an emoji with a skin tone (👍🏽) takes four columns, as tmux and xterm draw it (two and two): the columns after it line up', async () => {
    const stream = (id: string, name: string) => ({ id, name, status: 'enabled', destination: { type: 'action', configuration: { action_id: 'act_1' } }, subscriptions: [] });
    answer('/api/v2/event-streams', {
      eventStreams: [stream('est_emojiName000000000001', '👍🏽 thumbs'), stream('est_emojiName000000000002', 'plain-name')],
    });
    const result = await h.idm(['streams', 'list'], { env: { ...TTY_OUT, COLUMNS: '160' } });
    expect(result.code).toBe(0);
    expect(displayWidth('👍🏽')).toBe(4);
    expect(result.stdout.trimEnd().split('\n').map((line) => line.replace(/\s+action act_1$|\s+DESTINATION.*$/, ''))).toEqual([
      'ID                         NAME         STATUS',
      'est_emojiName000000000001  👍🏽 thumbs  enabled',
      'est_emojiName000000000002  plain-name   enabled',
    ]);
  });
});

describe('an error cut keeping its start and its cause (cut: cause)', () => {
  it('not ASCII (an en dash, wide characters): its start and its end are kept, the cause that is last still shows', async () => {
    const EVENT = 'evt_0000000000000000000000';
    const error = 'Connection to hooks.example.com failed after 30 s: 503 – Service Unavailable (the receiver is overloaded)';
    answer(`/api/v2/event-streams/${STREAM}/deliveries/${EVENT}`, {
      id: EVENT,
      event_stream_id: STREAM,
      event_type: 'user.created',
      status: 'failed',
      attempts: [{ status: 'failed', timestamp: '2025-07-29T04:32:04.491Z', error_message: error }],
    });
    const result = await h.idm(['streams', 'deliveries', 'show', STREAM, EVENT], { env: { ...TTY_OUT, COLUMNS: '60' } });
    expect(result.code).toBe(0);
    const row = result.stdout.split('\n').find((line) => line.startsWith('failed  '))!;
    expect(row.length).toBeLessThanOrEqual(60);
    expect(row).toBe('failed  04:32:04.491Z  Connection to…receiver is overloaded)');
  });
});

describe('a destination cut to its column (cut: host)', () => {
  it('a path that is not ASCII: the host and the end of the path are kept, as for any other', async () => {
    answer('/api/v2/event-streams', {
      eventStreams: [
        {
          id: 'est_unicodePath00000000001',
          name: 'orders',
          status: 'enabled',
          destination: { type: 'webhook', configuration: { webhook_endpoint: 'https://hooks.example.com/événements/commandes-importantes-du-jour', webhook_authorization: { method: 'bearer' } } },
          subscriptions: [{ event_type: 'user.created' }],
        },
      ],
    });
    const result = await h.idm(['streams', 'list'], { env: { ...TTY_OUT, COLUMNS: '80' } });
    expect(result.code).toBe(0);
    const row = result.stdout.split('\n')[1]!;
    expect(row).toMatch(/^est_unicodePath00000000001  orders  enabled +hooks\.example\.com\/…[^ ]*-du-jour  /);
  });
});
