// Tables at a terminal (src/output/index.ts), in process: borderless, the header once for every
// page, column widths kept from the first page, fitted to the terminal's width by narrowing the
// free-text columns first and never the id; piped, the same rows as tab-separated lines.
import { describe, expect, it } from 'vitest';
import { createOutput, type Column } from '../../src/output/index.js';
import { fitWidths } from '../../src/output/table.js';
import { cutCause, cutKeepingHost, cutMiddle, displayWidth } from '../../src/output/width.js';
import { captureIO } from '../helpers/deps.js';

interface Row {
  id: string;
  name: string;
  status: string;
  where: string;
}

const COLUMNS: ReadonlyArray<Column<Row>> = [
  { header: 'ID', value: (r) => r.id, shrink: 'never' },
  { header: 'NAME', value: (r) => r.name, shrink: 'first' },
  { header: 'STATUS', value: (r) => r.status, width: 8 },
  { header: 'DESTINATION', value: (r) => r.where, shrink: 'first' },
];

const row = (n: number, status = 'enabled'): Row => ({
  id: `est_${String(n).padStart(22, '0')}`,
  name: `stream-number-${n}-with-a-rather-long-name`,
  status,
  where: `webhook https://hooks.example.com/receivers/${n}/events/incoming`,
});
const page = (from: number, count: number, status?: string) => Array.from({ length: count }, (_, i) => row(from + i, status));

function terminal(columns: number) {
  const captured = captureIO({ tty: true, env: { NO_COLOR: '1' } });
  (captured.io.stdout as { columns?: number }).columns = columns;
  return { captured, output: createOutput(captured.io) };
}

describe('tables at a terminal', () => {
  it.each([80, 200])('at %i columns: no line is longer, no borders, the id whole', async (width) => {
    const { captured, output } = terminal(width);
    await output.printRows(COLUMNS, page(1, 5));
    const lines = captured.stdout().trimEnd().split('\n');
    expect(lines).toHaveLength(6);
    expect(lines[0]).toMatch(/^ID\s+NAME\s+STATUS\s+DESTINATION$/);
    for (const line of lines) expect(line.length).toBeLessThanOrEqual(width);
    expect(captured.stdout()).not.toMatch(/[│┌─┼└]/);
    expect(lines[1]).toMatch(/^est_0{21}1  /);
    if (width === 80) expect(lines[1]).toContain('…');
    else expect(lines[1]).toContain('webhook https://hooks.example.com/receivers/1/events/incoming');
  });

  it('prints the header once over several pages and keeps the first page\'s widths', async () => {
    const { captured, output } = terminal(100);
    const table = output.rows(COLUMNS);
    await table.add(page(1, 3));
    await table.add([{ ...row(4, 'disabled'), name: 'x'.repeat(300) }]); // longer than the column: cut
    await table.add(page(5, 3));
    const lines = captured.stdout().trimEnd().split('\n');
    expect(lines.filter((line) => line.startsWith('ID '))).toHaveLength(1);
    expect(lines).toHaveLength(8);
    const statusAt = lines[0]!.indexOf('STATUS');
    for (const line of lines.slice(1)) {
      expect(line.length).toBeLessThanOrEqual(100);
      expect(line.slice(statusAt)).toMatch(/^(enabled|disabled) /); // same column on every page
    }
    expect(lines[4]).toMatch(/x+…  disabled/);
  });

  it('leaves out columns the rows leave empty when asked (a successful attempt has no error)', async () => {
    const { captured, output } = terminal(120);
    await output.printRows(COLUMNS, [{ ...row(1), where: '' }], { hideEmptyColumns: true, label: 'attempt' });
    expect(captured.stdout()).not.toContain('DESTINATION');
    expect(captured.stdout()).toMatch(/^\nID\s+NAME\s+STATUS\n/);
  });

  it('piped: tab-separated lines, no header, nothing cut, every column kept', async () => {
    const captured = captureIO({ tty: false });
    const output = createOutput(captured.io);
    const table = output.rows(COLUMNS);
    await table.add(page(1, 2));
    await table.add([{ ...row(3), where: '' }]);
    await output.printRows(COLUMNS, [{ ...row(4), where: '' }], { label: 'attempt', hideEmptyColumns: true });
    expect(captured.stdout()).toBe(
      [1, 2].map((n) => `${row(n).id}\t${row(n).name}\tenabled\t${row(n).where}\n`).join('') +
        `${row(3).id}\t${row(3).name}\tenabled\t\n` +
        `attempt\t${row(4).id}\t${row(4).name}\tenabled\t\n`,
    );
  });
});

describe('a styled cell', () => {
  const STYLED: ReadonlyArray<Column<Row>> = COLUMNS.map((column) => (column.header === 'STATUS' ? { ...column, style: (r: Row) => (r.status === 'failed' ? 'red' : undefined) } : column));
  const coloured = async (width: number, rows: Row[]) => {
    const captured = captureIO({ tty: true, env: { FORCE_COLOR: '1' } });
    await captured.io.configure({ color: true });
    (captured.io.stdout as { columns?: number }).columns = width;
    await createOutput(captured.io).printRows(STYLED, rows);
    return captured.stdout();
  };

  it('is coloured through the palette, its text alone: the columns line up as without colour', async () => {
    const out = await coloured(200, [row(1, 'failed'), row(2, 'enabled')]);
    const lines = out.trimEnd().split('\n');
    expect(lines[1]).toContain('\x1b[31mfailed\x1b[39m    webhook'); // padding to 8, then the gap, outside the colour
    expect(lines[2]).not.toContain('\x1b[31m');
    const plain = lines.map((line) => line.replace(/\x1b\[\d+m/g, ''));
    expect(plain[1]!.indexOf('webhook')).toBe(plain[2]!.indexOf('webhook'));
    expect(plain[1]!.indexOf('failed')).toBe(plain[0]!.indexOf('STATUS'));
  });

  it('is plain when colour is off, and the escapes take no column when the table is fitted', async () => {
    const { captured, output } = terminal(80);
    await output.printRows(STYLED, [row(1, 'failed')]);
    expect(captured.stdout()).not.toContain('\x1b[');
    const lines = (await coloured(80, [row(1, 'failed')])).trimEnd().split('\n').map((line) => line.replace(/\x1b\[\d+m/g, ''));
    expect(lines).toEqual(captured.stdout().trimEnd().split('\n'));
  });
});

describe('the last ways to fit a narrow terminal', () => {
  const lines = async (columns: ReadonlyArray<Column<Row>>, width: number) => {
    const { captured, output } = terminal(width);
    await output.printRows(columns, page(1, 2));
    return captured.stdout().trimEnd().split('\n');
  };

  it('columns are left out from the right, none cut below 8 (a name stays readable)', async () => {
    const [header, first] = await lines(COLUMNS.slice(0, 3), 44);
    expect(header).toMatch(/^ID\s+NAME$/);
    expect(first).toMatch(/^est_0{21}1  stream-number-1…$/);
  });

  it('a column marked toHeader is first cut down to its header, so that the one after it stays', async () => {
    const columns = COLUMNS.slice(0, 3).map((column) => (column.header === 'NAME' ? { ...column, narrow: { toHeader: true } } : column));
    const [header, first] = await lines(columns, 44);
    expect(header).toMatch(/^ID\s+NAME\s+STATUS$/);
    expect(first).toMatch(/^est_0{21}1  strea…  enabled$/);
  });
});

describe('fitWidths', () => {
  it('narrows the widest free-text column first, then the others, never an id, never below 8', () => {
    expect(fitWidths([26, 40, 8, 60], ['never', 'first', undefined, 'first'], 200)).toEqual([26, 40, 8, 60]);
    // 26 + 40 + 8 + 60 + 3 gaps of 2 = 140: 40 characters too many, taken from the widest each time.
    expect(fitWidths([26, 40, 8, 60], ['never', 'first', undefined, 'first'], 100)).toEqual([26, 30, 8, 30]);
    // 96 too many: the free-text columns down to 8 (84), then 12 from the other one.
    expect(fitWidths([26, 40, 24, 60], ['never', 'first', undefined, 'first'], 60)).toEqual([26, 8, 12, 8]);
    expect(fitWidths([50, 40], ['never', 'first'], 20)).toEqual([50, 8]);
  });
});

describe('a host cut to its column (cut: host)', () => {
  it('an http:// host alone keeps its start and its port, never cut inside the scheme\'s slashes', () => {
    // The scheme gives way first, a `…` in its place.
    expect(cutKeepingHost('http://127.0.0.1:44369', 18)).toBe('…127.0.0.1:44369');
    expect(cutKeepingHost('http://127.0.0.1:44369', 14)).toBe('…127.0.…:44369');
    expect(cutKeepingHost('http://127.0.0.1:44369', 16)).toBe('…127.0.0.1:44369');
    expect(cutKeepingHost('http://127.0.0.1:44369', 7)).toBe('…:44369');
    for (let width = 7; width < 22; width++) {
      const shown = cutKeepingHost('http://127.0.0.1:44369', width);
      expect(shown.length).toBeLessThanOrEqual(width);
      expect(shown).toContain('…');
      expect(shown).not.toMatch(/^https?:\/?…/);
      expect(shown.endsWith(':44369')).toBe(true);
    }
  });

  it('a host without a scheme or port is cut at its end; a path keeps the host and its end', () => {
    expect(cutKeepingHost('tenant-name.eu.example.com', 14)).toBe('tenant-name.e…');
    expect(cutKeepingHost('hooks.example.com/receivers/1/events/incoming', 30)).toBe('hooks.example.com/…ts/incoming');
    expect(cutKeepingHost('http://hooks.example.com/receivers/1/events/incoming', 36)).toBe('…hooks.example.com/…/events/incoming');
    expect(cutKeepingHost('webhook https://hooks.example.com/receivers/1/events/incoming', 40)).toBe('webhook …hooks.example.com/…nts/incoming');
    // A `://` in the path is not a scheme: the host is still the text's start.
    expect(cutKeepingHost('hooks.example.com/redirect/to?u=https://x.example/inbox/orders', 30)).toBe('hooks.example.com/…nbox/orders');
  });
});

describe("an error message cut keeping its cause (cut: cause, the deliveries' errors)", () => {
  const refused = 'Post "https://127.0.0.1:38802/hook": connect ECONNREFUSED 127.0.0.1:38802';
  it('the trailing address named already goes first, then the end kept starts at a word', () => {
    expect(cutCause(refused, 80)).toBe(refused);
    expect(cutCause(refused, 60)).toBe('Post "https://127.0.0.1:38802/hook": connect ECONNREFUSED');
    expect(cutCause(refused, 40)).toBe('Post "https://127.0…connect ECONNREFUSED');
    expect(cutCause(refused, 20)).toBe('Post "h…ECONNREFUSED'); // cutMiddle: 'Post "…7.0.0.1:38802'
    expect(cutCause(refused, 14)).toBe('…ECONNREFUSED');
    expect(cutCause('Post "https://hooks.example.com/orders": context deadline exceeded (Client.Timeout exceeded while awaiting headers)', 30)).toBe(
      'Post "https:…awaiting headers)',
    );
    // An address that the message did not name already is part of the cause: kept.
    expect(cutCause('connect ECONNREFUSED 10.1.2.3:443 after 3 tries to 10.9.9.9:443', 30)).toBe('connect ECONNR…to 10.9.9.9:443');
  });

  it('never wider than asked; a last word too long for the column is cut as cutMiddle cuts', () => {
    for (let width = 0; width < 80; width++) expect(displayWidth(cutCause(refused, width))).toBeLessThanOrEqual(width);
    for (let width = 0; width < 30; width++) expect(displayWidth(cutCause('接続に失敗しました: サーバーが応答しません (503)', width))).toBeLessThanOrEqual(width);
    expect(cutCause('x'.repeat(40), 12)).toBe(cutMiddle('x'.repeat(40), 12));
  });
});

describe('an error cut in its middle (cut: middle)', () => {
  it('wide characters and marks: measured in columns, whole characters, the end kept, no mark without its letter', () => {
    expect(cutMiddle('接続に失敗しました: サーバーが応答しません (503)', 12)).toBe('接…ん (503)');
    expect(cutMiddle(`${'e\u0301'.repeat(10)} and the end`, 12)).toBe(`${'e\u0301'.repeat(3)}… the end`);
    expect(cutMiddle('start-e\u0301abcdefgh', 12)).toBe('sta…abcdefgh'); // not `…\u0301abcdefgh`: the mark's letter is cut
    for (let width = 7; width < 30; width++) expect(displayWidth(cutMiddle('接続に失敗しました: サーバーが応答しません (503)', width))).toBeLessThanOrEqual(width);
  });
});
