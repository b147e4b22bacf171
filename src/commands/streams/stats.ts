// idm streams stats <stream-id>: successful and failed deliveries per hour or day. At a terminal a
// chart to read at a glance (a row per bucket: its time, the two counts and a bar), then the window's
// totals; piped, one tab-separated line per bucket; --json as received.
import { Command } from 'commander';
import type { Deps } from '../../cli/factory.js';
import { examples } from '../../cli/help.js';
import { checkSinceNotFuture, checkTimeWindow, once, parseTime, sentTime } from '../../cli/parse.js';
import { isPlainObject } from '../../core/text.js';
import { utcSeconds } from '../../core/time.js';
import type { ApiRecord } from '../../api/management/index.js';
import { safeText } from '../../io/safe.js';
import { asText as text, fieldText, toMinute, valueAt } from '../../output/index.js';
import { cut, displayWidth } from '../../output/width.js';
import { ID_SHAPES } from '../../schemas/ids.js';
import { STREAM_ID_ARGUMENT } from './show.js';

export interface StatsOptions {
  streamId: string;
  since?: string;
  until?: string;
}

export const SUCCESSFUL = 'platform.event_streams.successful_deliveries';
export const FAILED = 'platform.event_streams.failed_deliveries';

export function streamsStatsCommand(deps: Deps, run = statsRun): Command {
  return new Command('stats')
    .description('Show successful and failed deliveries of a stream, per hour or per day')
    .addArgument(STREAM_ID_ARGUMENT())
    .option('--since <time>', 'from this time: RFC 3339 with Z or an offset, a date (midnight UTC), or back from now (30m, 6h, 7d); default: 14 days', once('--since', parseTime('--since')))
    .option('--until <time>', 'up to this time: RFC 3339, a date, or back from now; default: now (with neither flag, the service\'s window: to the next full hour)', once('--until', parseTime('--until', Date.now, true)))
    .addHelpText(
      'after',
      () => `${examples([`idm streams stats ${ID_SHAPES.stream.example}`, `idm streams stats ${ID_SHAPES.stream.example} --since 6h`, `idm streams stats ${ID_SHAPES.stream.example} --since 7d | awk -F'\\t' '{ failed += $3 } END { print failed }'`])}
Without --since and --until idm sends no window and the service uses its own:
from the start of the hour 14 days back to the next full hour (at 10:45, to
11:00). The service picks the buckets: a day each for long windows, an hour each
for short ones. Piped, each line is: bucket time, successful, failed.
`,
    )
    .action((streamId: string, flags: Omit<StatsOptions, 'streamId'>) => run({ streamId, ...flags }, deps));
}

export interface Series {
  buckets: string[];
  successful: number[];
  failed: number[];
  totals: { successful: number; failed: number };
  /**
   * The counts as shown: as the service wrote them (a count a double cannot hold, 12345678901234567890
   * or 1e400; a value that is not a number, "12" or null, as it came); one it left out, as counted (0).
   */
  shown: { successful: string[]; failed: string[]; totals: { successful: string; failed: string } };
  /** Whether the totals are numbers the service sent, or added up from counts that all were: a share of them means something. */
  totalsCounted: boolean;
  scale?: number;
}

/** `holder[key]` as shown: what the service sent there (fieldText: numbers as written, anything else as it came), else `count`. */
function countText(holder: unknown, key: string | number, count: number): string {
  return valueAt(holder, key) === undefined ? String(count) : fieldText(holder, key);
}

/**
 * The two metrics per bucket, read tolerantly: a missing metric or count is 0; a count that is not a
 * number is shown as it came, and draws no bar.
 */
export function series(stats: ApiRecord): Series {
  const buckets = (Array.isArray(stats.buckets) ? stats.buckets : []).map((bucket) => text(bucket));
  const metrics = (Array.isArray(stats.metrics) ? stats.metrics : []).filter(isPlainObject);
  const metric = (name: string) => metrics.find((m) => m.name === name);
  const counts = (name: string) => buckets.map((_, i) => {
    const data = metric(name)?.data;
    const value = Array.isArray(data) ? data[i] : undefined;
    return typeof value === 'number' && Number.isFinite(value) ? value : 0;
  });
  const total = (name: string, data: number[]) => {
    const given = metric(name)?.window_total;
    return typeof given === 'number' && Number.isFinite(given) ? given : data.reduce((sum, n) => sum + n, 0);
  };
  const successful = counts(SUCCESSFUL);
  const failed = counts(FAILED);
  const totals = { successful: total(SUCCESSFUL, successful), failed: total(FAILED, failed) };
  const shownCounts = (name: string, data: number[]) => data.map((count, i) => countText(metric(name)?.data, i, count));
  const shown = {
    successful: shownCounts(SUCCESSFUL, successful),
    failed: shownCounts(FAILED, failed),
    totals: { successful: countText(metric(SUCCESSFUL), 'window_total', totals.successful), failed: countText(metric(FAILED), 'window_total', totals.failed) },
  };
  // A total is what the service sent when it is a number; else it is added up, which holds only when every count is one.
  const counted = (name: string) => {
    const given = valueAt(metric(name), 'window_total');
    if (given !== undefined) return typeof given === 'number';
    const data = metric(name)?.data;
    return buckets.every((_, i) => ['number', 'undefined'].includes(typeof valueAt(data, i)));
  };
  const totalsCounted = counted(SUCCESSFUL) && counted(FAILED);
  const window = isPlainObject(stats.window) ? stats.window : {};
  const interval = isPlainObject(window.bucket_interval) ? window.bucket_interval.scale_factor : undefined;
  return { buckets, successful, failed, totals, shown, totalsCounted, scale: typeof interval === 'number' ? interval : undefined };
}

/** A count shown as a JSON number is written (digits, a sign, a fraction, an exponent): nothing to escape or cut. */
const WRITTEN_NUMBER = /^-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?$/;

/** `2026-11-24` for daily buckets, `2026-11-24 09:00` for hourly ones (UTC, as the service counts). */
function bucketLabel(time: string, scale: number | undefined): string {
  const match = /^(\d{4}-\d\d-\d\d)T(\d\d:\d\d)/.exec(time);
  if (!match) return time;
  return scale !== undefined && scale >= 86_400 ? match[1]! : `${match[1]} ${match[2]}`;
}

export async function statsRun(options: StatsOptions, deps: Deps, now: () => number = Date.now): Promise<void> {
  // Without --until the service counts to now (wire-facts.md: Statistics): `--since 2027-01-01`
  // alone is as empty a window as a reversed pair.
  checkTimeWindow(options.since, options.until, { time: utcSeconds(now(), true), words: 'now' });
  // With --until too: a window that starts after now counts nothing yet.
  checkSinceNotFuture(options.since, utcSeconds(now(), true));
  const { streams } = await deps.api();
  const stats = await streams.stats(options.streamId, { dateFrom: sentTime(options.since), dateTo: sentTime(options.until, true) });
  const { io, output } = deps;
  if (output.json) return output.printJson(stats);
  const data = series(stats);
  if (!io.stdoutIsTTY) {
    await output.printRows(
      [
        { header: 'BUCKET', value: (i: number) => data.buckets[i]! },
        { header: 'SUCCESSFUL', value: (i: number) => data.shown.successful[i]! },
        { header: 'FAILED', value: (i: number) => data.shown.failed[i]! },
      ],
      data.buckets.map((_, i) => i),
    );
    return;
  }
  // Measured as shown: a bucket the service wrote oddly is shown as it came, escaped (and may be wide).
  const labels = data.buckets.map((bucket) => safeText(bucketLabel(bucket, data.scale)));
  // Loops, not Math.max(...list): the server picks how many buckets there are, and a spread of a few
  // hundred thousand overflows the stack.
  const labelWidth = labels.reduce((most, label) => Math.max(most, displayWidth(label)), 5);
  const padLabel = (label: string) => `${label}${' '.repeat(labelWidth - displayWidth(label))}`;
  // Every count shown sets the column's width: a bucket's count can be wider than the total the
  // service sent when the two do not add up.
  // Measured as shown too: a count that is not a number is the server's text, made safe (escaped)
  // and cut at 24 columns; a number is shown whole, as written (12345678901234567890123456, 1e400).
  const safeCount = (count: string) => (WRITTEN_NUMBER.test(count) ? count : cut(safeText(count), 24));
  const shown = {
    successful: data.shown.successful.map(safeCount),
    failed: data.shown.failed.map(safeCount),
    totals: { successful: safeCount(data.shown.totals.successful), failed: safeCount(data.shown.totals.failed) },
  };
  const digits = [shown.totals.successful, shown.totals.failed, ...shown.successful, ...shown.failed].reduce((most, count) => Math.max(most, displayWidth(count)), 6);
  // The bars take what the columns leave (a row never wraps: at a very narrow terminal, no bars).
  const room = Math.max(0, io.columns - 1 - labelWidth - 2 * (digits + 2) - 2);
  const most = data.buckets.reduce((max, _, i) => Math.max(max, data.successful[i]! + data.failed[i]!), 1);
  // A count the service got wrong (negative, or so large that the sum is not finite) draws no bar or
  // a bar of the width there is, never a crash.
  const bar = (count: number) => {
    const width = Math.round((count / most) * room);
    return width > 0 ? Math.min(width, room) : count > 0 && room > 0 ? 1 : 0;
  };
  const padCount = (count: string) => `${' '.repeat(digits - displayWidth(count))}${count}`;
  const counts = (ok: string, failed: string) => `  ${padCount(ok)}  ${padCount(failed)}`;
  const window = isPlainObject(stats.window) ? stats.window : {};
  const every = data.scale === 3600 ? 'hourly' : data.scale === 86_400 ? 'daily' : `${data.scale ?? '?'} s`;
  // The title fits the terminal: the window to the minute, and the stream's name cut when long.
  const span = `  ${toMinute(text(window.date_from))} → ${toMinute(text(window.date_to))}, ${every} (UTC)`;
  // Measured as shown: a server's name with control characters is made safe (escaped) first.
  const name = safeText(fieldText(stats, 'name') || options.streamId);
  const shownSpan = safeText(span);
  if (displayWidth(shownSpan) + 9 < io.columns) output.line([['bold', cut(name, io.columns - displayWidth(shownSpan) - 1)], shownSpan]);
  else {
    output.line([['bold', cut(name, io.columns - 1)]]);
    output.line(cut(shownSpan.trimStart(), io.columns - 1));
  }
  output.line('');
  output.line([['bold', `${'TIME'.padEnd(labelWidth)}  ${'OK'.padStart(digits)}  ${'FAILED'.padStart(digits)}`]]);
  labels.forEach((label, i) => {
    const ok = data.successful[i]!;
    const failed = data.failed[i]!;
    // Each rounded on its own, the two could take one column more than there is.
    const okBar = bar(ok);
    const failedBar = Math.min(bar(failed), room - okBar);
    output.line([`${padLabel(label)}${counts(shown.successful[i]!, shown.failed[i]!)}${okBar + failedBar > 0 ? '  ' : ''}`, ['green', '█'.repeat(okBar)], ['red', '▒'.repeat(failedBar)]]);
  });
  const all = data.totals.successful + data.totals.failed;
  // A total beyond any number (1e400), or one that is not a number, is shown as the service wrote it, without a share.
  const beyond = !data.totalsCounted || [shown.totals.successful, shown.totals.failed].some((total) => !Number.isFinite(Number(total)));
  const share = beyond ? undefined : all === 0 ? 'no deliveries' : `${Math.floor((data.totals.successful / all) * 1000) / 10}% delivered`;
  const totals = counts(shown.totals.successful, shown.totals.failed);
  const shareFits = share === undefined || displayWidth(`${'Total'.padEnd(labelWidth)}${totals}  (${share})`) < io.columns;
  output.line([['bold', 'Total'.padEnd(labelWidth)], shareFits && share !== undefined ? `${totals}  (${share})` : totals]);
  if (!shareFits) output.line(share);
  output.note('█ successful  ▒ failed');
}
