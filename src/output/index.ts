// Every output decision in one place: a table at a terminal, tab-separated lines when piped, JSON
// with --json. stdout carries only data; notes, hints and warnings go to stderr. chalk and cli-table3
// are loaded only when a terminal will see them.
import type { IO } from '../io/terminal.js';

export interface Column<Row> {
  header: string;
  value: (row: Row) => string;
}

export interface Output {
  readonly json: boolean;
  /** --json: the value as one JSON document on stdout. */
  printJson(value: unknown): void;
  /** Rows as a table at a terminal, or as tab-separated lines (no header, no colour) when piped. */
  printRows<Row>(columns: ReadonlyArray<Column<Row>>, rows: ReadonlyArray<Row>): Promise<void>;
  /** Label/value pairs (a record's summary): aligned at a terminal, `label<TAB>value` when piped. */
  printFields(fields: ReadonlyArray<readonly [string, string]>): Promise<void>;
  /** A line of data on stdout, as is. */
  line(text: string): void;
  /** A note for people on stderr (hints, progress); never with --json's stdout. */
  note(text: string): void;
  warn(text: string): void;
}

type Styles = { bold(s: string): string; dim(s: string): string; yellow(s: string): string };
const plain: Styles = { bold: (s) => s, dim: (s) => s, yellow: (s) => s };

async function styles(enabled: boolean): Promise<Styles> {
  if (!enabled) return plain;
  const { Chalk } = await import('chalk');
  return new Chalk({ level: 1 });
}

/** Tabs and newlines inside a value would break the one-record-per-line TSV contract. */
export function tsvCell(value: string): string {
  return value.replace(/[\t\r\n]+/g, ' ');
}

export function createOutput(io: IO, options: { json: boolean }): Output {
  const stderrStyle = io.colorStderr ? { dim: (s: string) => `\u001b[2m${s}\u001b[22m`, yellow: (s: string) => `\u001b[33m${s}\u001b[39m` } : { dim: (s: string) => s, yellow: (s: string) => s };
  return {
    json: options.json,
    printJson(value) {
      io.out(`${JSON.stringify(value, null, 2)}\n`);
    },
    async printRows(columns, rows) {
      if (!io.stdoutIsTTY) {
        let text = '';
        for (const row of rows) text += `${columns.map((c) => tsvCell(c.value(row))).join('\t')}\n`;
        io.out(text);
        return;
      }
      const [{ default: Table }, style] = await Promise.all([import('cli-table3'), styles(io.color)]);
      const table = new Table({
        head: columns.map((c) => style.bold(c.header)),
        style: { head: [], border: [] },
        wordWrap: false,
      });
      for (const row of rows) table.push(columns.map((c) => c.value(row)));
      io.out(`${table.toString()}\n`);
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
}
