// Every output decision in one place: a table at a terminal, tab-separated lines when piped, JSON
// with --json. stdout carries only data; notes, hints, warnings and errors go to stderr. Every
// string that came from a server or a file is made safe here (io/safe.ts) before a terminal sees
// it; cli-table3 is loaded only when a terminal will see a table (./table.ts).
import { stringifyJson } from '../core/json-numbers.js';
import { clip, isPlainObject } from '../core/text.js';
import type { IdmError, Warning } from '../core/errors.js';
import type { IO, Palette } from '../io/io.js';
import { safeJson, safeText } from '../io/safe.js';
import type { Column, Rows, RowsOptions, Style } from './types.js';
import { displayWidth, wrapWords } from './width.js';

export type { Column, Rows, RowsOptions, Style } from './types.js';

/** A record's label and value, and the value's style at a colour terminal. */
export type Field = readonly [label: string, value: string, style?: Style];

/** Part of a line: text, or text in one or more of the palette's styles. */
export type Segment = string | readonly [keyof Palette | ReadonlyArray<keyof Palette>, string];

/** The segments made safe, then styled: a style's codes are the only escapes that reach the terminal. */
function styled(parts: string | ReadonlyArray<Segment>, palette: Palette): string {
  return (typeof parts === 'string' ? [parts] : parts)
    .map((part) => {
      if (typeof part === 'string') return safeText(part);
      const styles = typeof part[0] === 'string' ? [part[0]] : part[0];
      return styles.reduce((text, style) => palette[style](text), safeText(part[1]));
    })
    .join('');
}

export interface Output {
  readonly json: boolean;
  /** --json: the value as one JSON document on stdout (the same JSON value as received). */
  printJson(value: unknown): void;
  /**
   * Rows as a compact table at a terminal (no borders, bold header, fitted to its width), or as
   * tab-separated lines (no header, no colour) when piped.
   */
  rows<Row>(columns: ReadonlyArray<Column<Row>>, options?: RowsOptions): Rows<Row>;
  /** All the rows at once: `rows(columns, options).add(rows)`. */
  printRows<Row>(columns: ReadonlyArray<Column<Row>>, rows: ReadonlyArray<Row>, options?: RowsOptions): Promise<void>;
  /**
   * Label/value pairs (a record's summary): aligned at a terminal, `label<TAB>value` when piped. A
   * third element styles the value at a colour terminal (a failed status in red).
   */
  printFields(fields: ReadonlyArray<Field>): void;
  /** A line of data on stdout, made safe; its parts may carry a style of the palette (colour at a terminal). */
  line(text: string | ReadonlyArray<Segment>): void;
  /** A note for people on stderr (hints, progress); nothing with --json. */
  note(text: string): void;
  /** A line for people on stderr (a dialog's lines, an outcome), made safe; parts may carry styles. */
  say(text: string | ReadonlyArray<Segment>): void;
  warn(warning: Warning): void;
  /**
   * --debug: a trace (a request, an answer, a stack) on stderr, made safe line by line, or one
   * `{"debug": "..."}` line with --json, so that stderr stays JSON lines.
   */
  debug(text: string): void;
  /** The one report of a failure: one or two lines, or one JSON object with --json. */
  error(error: IdmError): void;
}

/** A value of a record as shown: strings as they are, absent as empty, anything else as JSON. */
export function asText(value: unknown): string {
  return value === undefined || value === null ? '' : typeof value === 'string' ? value : JSON.stringify(value);
}

/** `holder[key]` of an answer: undefined when `holder` is not an object (or array). fieldText shows it. */
export function valueAt(holder: unknown, key: string | number): unknown {
  return typeof holder === 'object' && holder !== null ? (holder as Record<string, unknown>)[key] : undefined;
}

/**
 * `holder[key]` as asText shows it, but every number in it as the server wrote it
 * (core/json-numbers.ts): a count of 12345678901234567890 or 1e400 is shown so, not as
 * 12345678901234567000 or `null`. The one way a table cell or a record's field shows a value it reads
 * from an answer; `holder` is the object (or array) that holds it, anything else shows as empty.
 */
export function fieldText(holder: unknown, key: string | number): string {
  const value = valueAt(holder, key);
  if (value === undefined || value === null || typeof value === 'string') return asText(value);
  // A value there: `holder` is an object (valueAt).
  return stringifyJson(value, undefined, { holder: holder as object, key: String(key) }) ?? '';
}

// A listing's entry that is not an object (null, a number) is shown as it is in its ID column, never a crash.
/** A field of a listed entry, as received; an entry that is not an object stands for its own `id`. */
export const entryField = (entry: unknown, key: string): unknown => (isPlainObject(entry) ? entry[key] : key === 'id' ? entry : undefined);
/** A field of a listed entry as shown (fieldText: numbers as written); an entry that is not an object, as it is in the ID column. */
export const entryCell = (entry: unknown, key: string): string => (isPlainObject(entry) ? fieldText(entry, key) : key === 'id' ? asText(entry) : '');

/** `2026-11-24 09:00` for an ISO time in UTC (the minute is enough in a table); anything else as it is. */
export function toMinute(time: string): string {
  return time.replace(/^(\d{4}-\d\d-\d\d)T(\d\d:\d\d)[^ ]*Z$/, '$1 $2');
}

/** An ISO time in UTC as its time of day, exact (`05:50:01.185Z`): for times seconds apart whose date is shown elsewhere. */
export function toTimeOfDay(time: string): string {
  return time.replace(/^\d{4}-\d\d-\d\dT(\d\d:\d\d:\d\d(?:\.\d+)?Z)$/, '$1');
}

export function createOutput(io: IO): Output {
  const output: Output = {
    get json() {
      return io.json;
    },
    printJson(value) {
      io.out(`${safeJson(value, 2)}\n`);
    },
    rows<Row>(columns: ReadonlyArray<Column<Row>>, rowsOptions: RowsOptions = {}): Rows<Row> {
      if (!io.stdoutIsTTY) return tsvRows(io, columns, rowsOptions);
      // The table's code (and cli-table3) loads with the first rows a terminal will see.
      let table: Promise<Rows<Row>> | undefined;
      return {
        async add(rows) {
          if (rows.length === 0) return;
          table ??= import('./table.js').then(({ tableRows }) => tableRows(io, columns, rowsOptions));
          await (await table).add(rows);
        },
      };
    },
    printRows(columns, rows, rowsOptions) {
      return output.rows(columns, rowsOptions).add(rows);
    },
    printFields(fields) {
      if (!io.stdoutIsTTY) {
        io.out(fields.map(([label, value]) => `${safeText(label)}\t${safeText(value)}\n`).join(''));
        return;
      }
      const palette = io.palette('stdout');
      // Labels measured as shown: a field the server named (a stream's unknown field) may be wide
      // (CJK) or hold escaped control characters, which take more columns than its length says.
      const labels = fields.map(([label]) => safeText(label));
      const width = Math.max(...labels.map(displayWidth));
      const padded = (label: string) => `${label}${' '.repeat(width - displayWidth(label))}`;
      // A long value with spaces (event types, scopes, an error) is broken between its words, its
      // lines under its first: the terminal would break it inside a word, under the labels. Not one
      // with a run of spaces, which the lines would not keep. A value with a word that does not fit
      // beside the labels (an id, a URL, a timestamp, a long scope at 40 columns) goes under its
      // label, indented by two, broken between words there; a word wider than even that line (a
      // long URL) is a line of its own from the first column, whole: the terminal's wrap leaves it
      // whole when copied, where a line break of idm's would not.
      const room = io.columns - width - 2;
      const under = io.columns - 2;
      const wrappable = (value: string) => / /.test(value) && !/  /.test(value);
      const fits = (value: string, columns: number) => displayWidth(value) <= columns || (wrappable(value) && wrapWords(value, columns).every((line) => displayWidth(line) <= columns));
      const show = (label: string, value: string, style: Field[2]) => {
        const paint = (line: string) => (style ? palette[style](line) : line);
        // An empty value leaves its label alone on the line, without the spaces that would pad it.
        if (value === '') return `${palette.bold(label)}\n`;
        if (fits(value, room) && (displayWidth(value) <= room || room >= 20)) {
          const lines = displayWidth(value) <= room ? [value] : wrapWords(value, room);
          return lines.map((line, index) => `${index === 0 ? palette.bold(padded(label)) : ' '.repeat(width)}  ${paint(line)}\n`).join('');
        }
        const lines = displayWidth(value) > under && wrappable(value) ? wrapWords(value, under) : [value];
        return `${palette.bold(label)}\n${lines.map((line) => `${displayWidth(line) <= under ? '  ' : ''}${paint(line)}\n`).join('')}`;
      };
      io.out(fields.map(([, value, style], i) => show(labels[i]!, safeText(value), style)).join(''));
    },
    line(text) {
      io.out(`${styled(text, io.palette('stdout'))}\n`);
    },
    // Notes and warnings quote a server's strings (an id, a status, a message): cut as an error's
    // message is (clip), so that one of a megabyte does not fill the terminal.
    note(text) {
      if (io.json) return;
      io.err(`${io.palette('stderr').dim(safeText(clip(text)))}\n`);
    },
    say(text) {
      io.err(`${styled(text, io.palette('stderr'))}\n`);
    },
    warn(given) {
      const warning = { ...given, message: clip(given.message), ...(given.hint === undefined ? {} : { hint: clip(given.hint) }) };
      const label = io.palette('stderr').yellow('Warning:');
      io.notice('warning', warning, `${label} ${safeText(warning.message)}\n${warning.hint ? `${safeText(warning.hint)}\n` : ''}`);
    },
    debug(text) {
      const trace = text.trimEnd();
      io.notice('debug', trace, `${trace.split('\n').map(safeText).join('\n')}\n`);
    },
    error(error) {
      if (io.json) {
        const { error: body } = error.toJSON();
        io.err(`${safeJson({ error: { ...body, message: clip(error.message), ...(error.hint === undefined ? {} : { hint: clip(error.hint) }) } })}\n`);
        return;
      }
      io.err(`${io.palette('stderr').red('Error:')} ${safeText(clip(error.message))}\n`);
      if (error.hint) io.err(`${safeText(clip(error.hint))}\n`);
    },
  };
  return output;
}

function tsvRows<Row>(io: IO, columns: ReadonlyArray<Column<Row>>, { label }: RowsOptions): Rows<Row> {
  return {
    async add(rows) {
      let text = '';
      for (const row of rows) text += `${label === undefined ? '' : `${label}\t`}${columns.map((c) => safeText(c.value(row))).join('\t')}\n`;
      io.out(text);
    },
  };
}
