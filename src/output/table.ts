// The compact table idm prints at a terminal (loaded only then): borderless and aligned like gh or
// kubectl, drawn by cli-table3, fitted to the terminal's width, and fed page by page.
import Table from 'cli-table3';
import utils from 'cli-table3/src/utils.js';
import type { IO } from '../io/io.js';
import { safeText } from '../io/safe.js';
import type { Column, Rows, RowsOptions } from './types.js';

/** Spaces between two columns of a table. */
const GAP = 2;
/** A column is never cut narrower than this: `2025-09…`, `webhook…`. */
const MIN_CUT = 8;
// No borders and no row separators (the layout of gh or kubectl): only the gap between columns.
const BORDERLESS = {
  ...Object.fromEntries(
    ['top', 'top-mid', 'top-left', 'top-right', 'bottom', 'bottom-mid', 'bottom-left', 'bottom-right', 'left', 'left-mid', 'mid', 'mid-mid', 'right', 'right-mid'].map(
      (name) => [name, ''],
    ),
  ),
  middle: ' '.repeat(GAP),
};

/**
 * Narrows columns until the table fits in `total` characters: one character at a time from the
 * widest `first` column, then from the widest of the others, none below MIN_CUT; `never` columns
 * keep their width (the table may then stay wider than the terminal).
 */
export function fitWidths(natural: readonly number[], shrink: ReadonlyArray<Column<never>['shrink']>, total: number): number[] {
  const widths = [...natural];
  let excess = widths.reduce((sum, width) => sum + width, 0) + GAP * (widths.length - 1) - total;
  for (const phase of ['first', undefined] as const) {
    while (excess > 0) {
      let widest = -1;
      widths.forEach((width, i) => {
        if (shrink[i] === phase && width > MIN_CUT && (widest < 0 || width > widths[widest]!)) widest = i;
      });
      if (widest < 0) break;
      widths[widest]!--;
      excess--;
    }
  }
  return widths;
}

export function tableRows<Row>(io: IO, allColumns: ReadonlyArray<Column<Row>>, { label, hideEmptyColumns }: RowsOptions): Rows<Row> {
  let columns = allColumns;
  let widths: number[] | undefined;
  return {
    async add(rows) {
      if (rows.length === 0) return;
      const style = io.palette('stdout');
      const { strlen } = utils;
      const shown = (column: Column<Row>, row: Row) => (column.display ?? column.value)(row);
      if (widths === undefined && hideEmptyColumns) columns = columns.filter((column) => rows.some((row) => shown(column, row) !== ''));
      const cells = rows.map((row) => columns.map((column) => safeText(shown(column, row))));
      const widest = (i: number) => cells.reduce((max, row) => Math.max(max, strlen(row[i]!)), 0);
      const first = widths === undefined;
      widths ??= fitWidths(
        columns.map((column, i) => Math.max(strlen(column.header), column.width ?? 0, widest(i))),
        columns.map((column) => column.shrink),
        io.columns,
      );
      const table = new Table({
        head: first ? columns.map((column) => style.bold(column.header)) : [],
        chars: BORDERLESS,
        style: { head: [], border: [], 'padding-left': 0, 'padding-right': 0 },
        // A column that is never cut widens for a longer value (that row is then out of line) rather than lose it.
        colWidths: widths.map((width, i) => (columns[i]!.shrink === 'never' ? Math.max(width, widest(i)) : width)),
        wordWrap: false,
      });
      for (const row of cells) table.push(row); // never a spread: the server decides how many rows
      const text = table.toString().split('\n').map((line) => line.trimEnd()).join('\n');
      io.out(`${first && label !== undefined ? '\n' : ''}${text}\n`);
    },
  };
}
