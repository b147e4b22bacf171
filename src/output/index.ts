// Every output decision in one place: a table at a terminal, tab-separated lines when piped, JSON
// with --json. stdout carries only data; notes, hints and warnings go to stderr. chalk and cli-table3
// are loaded only when a terminal will see them (the table itself is ./table.ts).
import type { IO } from '../io/terminal.js';

export interface Column<Row> {
  header: string;
  value: (row: Row) => string;
  /**
   * How the column gives way when the table is wider than the terminal: `first` for free text
   * (names, endpoints, lists: the widest gives way first), `never` for ids; the others give way after
   * the `first` ones.
   */
  shrink?: 'first' | 'never';
  /** The widest value any page may hold (an enum's longest), for when the first page does not show it. */
  width?: number;
  /** A shorter form for people, shown in the terminal's table; tab-separated output keeps `value`. */
  display?: (row: Row) => string;
}

export interface RowsOptions {
  /**
   * The rows belong to a record printed with printFields: piped, each line starts with this label
   * (`attempt<TAB>...`), as the fields' lines start with theirs; at a terminal a blank line parts the
   * table from the fields.
   */
  label?: string;
  /**
   * At a terminal, leave out the columns that the first page leaves empty (no error on a success).
   * Piped lines keep every column, so that each value stays in its place.
   */
  hideEmptyColumns?: boolean;
}

/** A table that is given its rows page by page, so that memory does not grow with their number. */
export interface Rows<Row> {
  /**
   * One page of rows. At a terminal the first page prints the header and decides the column widths;
   * later pages keep them, cutting longer values with `…`.
   */
  add(rows: ReadonlyArray<Row>): Promise<void>;
}

export interface Output {
  readonly json: boolean;
  /** --json: the value as one JSON document on stdout. */
  printJson(value: unknown): void;
  /**
   * Rows as a compact table at a terminal (no borders, bold header, fitted to its width), or as
   * tab-separated lines (no header, no colour) when piped.
   */
  rows<Row>(columns: ReadonlyArray<Column<Row>>, options?: RowsOptions): Rows<Row>;
  /** All the rows at once: `rows(columns, options).add(rows)`. */
  printRows<Row>(columns: ReadonlyArray<Column<Row>>, rows: ReadonlyArray<Row>, options?: RowsOptions): Promise<void>;
  /** Label/value pairs (a record's summary): aligned at a terminal, `label<TAB>value` when piped. */
  printFields(fields: ReadonlyArray<readonly [string, string]>): Promise<void>;
  /** A line of data on stdout, as is. */
  line(text: string): void;
  /** A note for people on stderr (hints, progress); never with --json's stdout. */
  note(text: string): void;
  warn(text: string): void;
}

export type Styles = { bold(s: string): string; dim(s: string): string; yellow(s: string): string };
const plain: Styles = { bold: (s) => s, dim: (s) => s, yellow: (s) => s };

async function styles(enabled: boolean): Promise<Styles> {
  if (!enabled) return plain;
  const { Chalk } = await import('chalk');
  return new Chalk({ level: 1 });
}

/** A value of a record as shown: strings as they are, absent as empty, anything else as JSON. */
export function asText(value: unknown): string {
  return value === undefined || value === null ? '' : typeof value === 'string' ? value : JSON.stringify(value);
}

/** Tabs and newlines inside a value would break the one-record-per-line TSV contract (and a table's rows). */
export function tsvCell(value: string): string {
  return value.replace(/[\t\r\n]+/g, ' ');
}

export function createOutput(io: IO, options: { json: boolean }): Output {
  const stderrStyle = io.colorStderr ? { dim: (s: string) => `\u001b[2m${s}\u001b[22m`, yellow: (s: string) => `\u001b[33m${s}\u001b[39m` } : { dim: (s: string) => s, yellow: (s: string) => s };
  const output: Output = {
    json: options.json,
    printJson(value) {
      io.out(`${JSON.stringify(value, null, 2)}\n`);
    },
    rows<Row>(columns: ReadonlyArray<Column<Row>>, rowsOptions: RowsOptions = {}): Rows<Row> {
      if (!io.stdoutIsTTY) return tsvRows(io, columns, rowsOptions);
      // The table's code (and cli-table3, chalk) loads with the first rows a terminal will see.
      let table: Promise<Rows<Row>> | undefined;
      return {
        async add(rows) {
          if (rows.length === 0) return;
          table ??= import('./table.js').then(({ tableRows }) => tableRows(io, columns, rowsOptions, styles(io.color), tsvCell));
          await (await table).add(rows);
        },
      };
    },
    printRows(columns, rows, rowsOptions) {
      return output.rows(columns, rowsOptions).add(rows);
    },
    async printFields(fields) {
      if (!io.stdoutIsTTY) {
        io.out(fields.map(([label, value]) => `${tsvCell(label)}\t${tsvCell(value)}\n`).join(''));
        return;
      }
      const style = await styles(io.color);
      const width = Math.max(...fields.map(([label]) => label.length));
      io.out(fields.map(([label, value]) => `${style.bold(label.padEnd(width))}  ${value}\n`).join(''));
    },
    line(text) {
      io.out(`${text}\n`);
    },
    note(text) {
      io.err(`${stderrStyle.dim(text)}\n`);
    },
    warn(text) {
      io.err(`${stderrStyle.yellow('Warning:')} ${text}\n`);
    },
  };
  return output;
}

function tsvRows<Row>(io: IO, columns: ReadonlyArray<Column<Row>>, { label }: RowsOptions): Rows<Row> {
  return {
    async add(rows) {
      let text = '';
      for (const row of rows) text += `${label === undefined ? '' : `${label}\t`}${columns.map((c) => tsvCell(c.value(row))).join('\t')}\n`;
      io.out(text);
    },
  };
}
