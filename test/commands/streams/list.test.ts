// idm streams list through the built binary: the table at a terminal under --all (one header, every
// line within the terminal's width, the id never cut), and a server whose cursors go round in a
// circle (A, B, A), which --all must not follow forever.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fakeServer, json, tokenAnswer } from '../../helpers/fake-server.js';
import { runIdm, tempConfigDir } from '../../helpers/cli.js';
import { startHarness, type Harness } from '../../helpers/harness.js';

describe('idm streams list --all at a terminal', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ streams: 250 }); // and the 6 demo streams: 3 pages of 100
  });
  afterAll(() => h.close());

  it.each([80, 200])('at %i columns: one header, one line per stream, none longer than the terminal', async (columns) => {
    const result = await h.idm(['streams', 'list', '--all'], { env: { IDM_FORCE_TTY: 'stdout', NO_COLOR: '1', COLUMNS: String(columns) } });
    expect(result.code).toBe(0);
    const lines = result.stdout.trimEnd().split('\n');
    expect(lines.filter((line) => /^ID\s+NAME\s+STATUS\s+/.test(line))).toHaveLength(1);
    expect(lines).toHaveLength(1 + 256);
    for (const line of lines) expect([...line].length).toBeLessThanOrEqual(columns);
    expect(lines.slice(1).every((line) => /^est_\w{22}  /.test(line))).toBe(true);
    expect(result.stdout).not.toMatch(/[│┌─]/);
    if (columns === 200) expect(result.stdout).toMatch(/\s127\.0\.0\.1:\d+\/inbox\/demo-bearer\s/); // a webhook as host and path
    else expect(result.stdout).toContain('…');
    expect(h.calls('GET').filter((call) => call.path === '/api/v2/event-streams').length).toBeGreaterThanOrEqual(3);
  });

  it('piped: the same streams as tab-separated lines, nothing cut', async () => {
    const result = await h.idm(['streams', 'list', '--all'], { env: { COLUMNS: '80' } });
    const lines = result.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(256);
    expect(lines.every((line) => line.split('\t').length === 6)).toBe(true);
    expect(result.stdout).not.toContain('…');
  });
});

describe('idm streams list --all against cursors that go round', () => {
  it('stops with exit 1 when the server returns a cursor it returned before (A, B, A)', async () => {
    const stream = (id: string) => ({ id, name: id, status: 'enabled', subscriptions: [], destination: { type: 'action', configuration: { action_id: 'a' } } });
    const pages: Record<string, { eventStreams: unknown[]; next?: string }> = {
      '': { eventStreams: [stream('est_page0000000000000000001')], next: 'A' },
      A: { eventStreams: [stream('est_page0000000000000000002')], next: 'B' },
      B: { eventStreams: [stream('est_page0000000000000000003')], next: 'A' },
    };
    const server = await fakeServer((request, res) => {
      if (request.url.startsWith('/oauth/token')) return json(res, 200, tokenAnswer(1));
      const from = new URL(request.url, 'http://x').searchParams.get('from') ?? '';
      json(res, 200, pages[from] ?? { eventStreams: [] });
    });
    const { dir, cleanup } = tempConfigDir();
    try {
      const result = await runIdm(['streams', 'list', '--all'], {
        configDir: dir,
        env: { IDM_DOMAIN: server.url, IDM_CLIENT_ID: 'client', IDM_CLIENT_SECRET: 'not-a-real-secret' },
        timeoutMs: 10_000,
      });
      expect(result.signal).toBeNull();
      expect(result.code).toBe(1);
      expect(result.stderr).toContain('the server returned a cursor twice');
      const lists = server.seen.filter((request) => request.url.startsWith('/api/v2/event-streams'));
      expect(lists.map((request) => new URL(request.url, 'http://x').searchParams.get('from'))).toEqual([null, 'A', 'B']);
    } finally {
      cleanup();
      await server.close();
    }
  });
});
