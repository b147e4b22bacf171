// --since / --until (cli/parse.ts parseTime): RFC 3339 with Z or an offset, a date alone (midnight
// UTC), or a duration back from an injected now; always returned in the service's Z form without
// fractions (a start to the second before, an end to the second after). A date that does not
// exist (it used to roll over: 2026-02-30 became 2 March) and a time without Z or an offset (it used
// to be read in the machine's time zone) are refused. And the one check that a window does not end
// before it starts (checkTimeWindow).
import { InvalidArgumentError } from 'commander';
import { describe, expect, it } from 'vitest';
import { checkTimeWindow, parseTime, sentTime } from '../../src/cli/parse.js';
import { UsageError } from '../../src/core/errors.js';

const NOW = Date.parse('2026-11-25T12:34:56.789Z');
const parse = parseTime('--since', () => NOW);

describe('parseTime', () => {
  it.each([
    ['2026-11-24T09:00:00Z', '2026-11-24T09:00:00Z'],
    ['2026-11-24t09:00:00z', '2026-11-24T09:00:00Z'],
    ['2026-11-24T09:00:00.999Z', '2026-11-24T09:00:00Z'],
    ['2026-11-24T10:00:00+01:00', '2026-11-24T09:00:00Z'],
    ['2026-11-24T04:30:00-04:30', '2026-11-24T09:00:00Z'],
    ['2026-11-24 09:00Z', '2026-11-24T09:00:00Z'],
    ['2026-11-24', '2026-11-24T00:00:00Z'],
    ['2028-02-29', '2028-02-29T00:00:00Z'],
    ['30m', '2026-11-25T12:04:56Z'],
    ['6h', '2026-11-25T06:34:56Z'],
    ['7d', '2026-11-18T12:34:56Z'],
    // The years 0000 to 0099 are RFC 3339 years like any other (they were read as 1900 to 1999,
    // found not to be the year typed, and refused as "not an RFC 3339 time").
    ['0000-01-01', '0000-01-01T00:00:00Z'],
    ['0050-06-15T12:00:00Z', '0050-06-15T12:00:00Z'],
    ['0099-12-31T23:59:59Z', '0099-12-31T23:59:59Z'],
    ['0004-02-29', '0004-02-29T00:00:00Z'],
    ['0001-01-01T00:30:00+01:00', '0000-12-31T23:30:00Z'],
  ])('%s → %s', (typed, sent) => {
    expect(sentTime(parse(typed))).toBe(sent);
  });

  it('a fraction typed is kept until the time is sent (the order of --since and --until is judged on it); a duration is to the second', () => {
    expect(parse('2026-11-24T09:00:00.700Z')).toBe('2026-11-24T09:00:00.700Z');
    expect(parse('2026-11-24T10:00:00.5+01:00')).toBe('2026-11-24T09:00:00.500Z');
    expect(parse('2026-11-24T09:00:00.000Z')).toBe('2026-11-24T09:00:00Z');
    expect(parse('30m')).toBe('2026-11-25T12:04:56Z');
  });

  it.each([
    ['2026-02-30', 'a day February does not have'],
    ['2027-02-29', 'not a leap year'],
    ['2026-04-31', 'April has 30 days'],
    ['2026-13-01', 'month 13'],
    ['2026-11-25T24:00:00Z', 'hour 24'],
    ['2026-11-25T10:60:00Z', 'minute 60'],
    ['2026-11-25T10:00:00+25:00', 'an offset of 25 hours'],
    ['2026-11-25T10:00', 'no Z or offset: whose clock?'],
    ['2026-11-25T10:00:00', 'no Z or offset, with seconds'],
    ['2026-11-25T10:00:00+0100', 'an offset without its colon'],
    ['0003-02-29', 'not a leap year, in the first century'],
    ['yesterday', 'a word'],
  ])('%s is refused (%s)', (typed) => {
    expect(() => parse(typed)).toThrow(InvalidArgumentError);
    expect(() => parse(typed)).toThrow(/--since must be an RFC 3339 time with Z or an offset/);
  });
});

describe('parseTime for an end (--until): a fraction of a second goes to the second after', () => {
  const until = parseTime('--until', () => NOW, true);
  it.each([
    ['2026-11-24T09:00:00.001Z', '2026-11-24T09:00:01Z'],
    ['2026-11-24T09:00:00.581Z', '2026-11-24T09:00:01Z'],
    ['2026-11-24T09:00:00Z', '2026-11-24T09:00:00Z'],
    ['2026-11-24T09:00:00.000Z', '2026-11-24T09:00:00Z'],
    ['2026-11-24', '2026-11-24T00:00:00Z'],
    ['30m', '2026-11-25T12:04:57Z'],
  ])('%s → %s', (typed, sent) => {
    expect(sentTime(until(typed), true)).toBe(sent);
  });
  it('a second after 9999-12-31T23:59:59 is outside the years RFC 3339 writes', () => {
    expect(() => until('9999-12-31T23:59:59.5Z')).toThrow(/--until is outside the years 0000 to 9999/);
  });
});

describe('checkTimeWindow', () => {
  it('refuses --since after --until, naming both', () => {
    expect(() => checkTimeWindow('2026-11-24T00:00:00Z', '2026-11-23T00:00:00Z')).toThrow(UsageError);
    expect(() => checkTimeWindow('2026-11-24T00:00:00Z', '2026-11-23T00:00:00Z')).toThrow('--since (2026-11-24T00:00:00Z) is after --until (2026-11-23T00:00:00Z).');
  });
  it('judges the times given, to the millisecond: a pair reversed within one second is refused (sent, it was a window of that second)', () => {
    const since = parseTime('--since', () => NOW)('2026-11-24T09:00:00.7Z');
    const until = parseTime('--until', () => NOW, true)('2026-11-24T09:00:00.3Z');
    expect(() => checkTimeWindow(since, until)).toThrow('--since (2026-11-24T09:00:00.700Z) is after --until (2026-11-24T09:00:00.300Z).');
    expect(() => checkTimeWindow('2026-11-24T09:00:00.300Z', '2026-11-24T09:00:00.700Z')).not.toThrow();
  });

  it('takes an equal pair, an ordered pair, and either alone', () => {
    for (const [since, until] of [['2026-11-24T00:00:00Z', '2026-11-24T00:00:00Z'], ['2026-11-23T00:00:00Z', '2026-11-24T00:00:00Z'], [undefined, '2026-11-24T00:00:00Z'], ['2026-11-24T00:00:00Z', undefined]]) {
      expect(() => checkTimeWindow(since, until)).not.toThrow();
    }
  });
});
