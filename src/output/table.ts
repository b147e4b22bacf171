// The compact table idm prints at a terminal (loaded only then): borderless and aligned like gh or
// kubectl, fitted to the terminal's width, and fed page by page. A row never wraps: at a narrow
// terminal low-priority columns give way first (left out, or shown compact), then free-text cells
// are cut with `…`, then columns are left out from the right; ids and headers are never cut. A
// column may colour its cells (a failed status in red), through the io palette only, measured without
// the colour. Drawn here rather than with cli-table3, which measured 30 times the cost of
// tab-separated output per row (README: Performance).
import type { IO } from '../io/io.js';
import { safeText } from '../io/safe.js';
import type { Column, Rows, RowsOptions, Style } from './types.js';
import { cut, cutCause, cutKeepingHost, displayWidth } from './width.js';

/** Spaces between two columns of a table. */
const GAP = 2;
/** A column is not cut narrower than this while another way to fit remains: `2025-09…`, `webhook…`. */
const MIN_CUT = 8;
/** Cells are cut only from this stage on: after the first columns gave way (CREATED left out, EVENT TYPES counted). */
export const CUT_FROM_STAGE = 2;

interface Layout<Row> {
  columns: Array<Column<Row>>;
  /** Each column's cell for a row, as shown. */
  cell: Array<(row: Row) => string>;
  headers: string[];
}

function layoutAt<Row>(all: ReadonlyArray<Column<Row>>, stage: number): Layout<Row> {
  const columns = all.filter((column) => column.narrow?.drop === undefined || stage < column.narrow.drop);
  const compact = (column: Column<Row>) => column.narrow?.compact !== undefined && stage >= column.narrow.compact && column.narrow.compactValue !== undefined;
  return {
    columns,
    cell: columns.map((column) => (compact(column) ? column.narrow!.compactValue! : (column.display ?? column.value))),
    headers: columns.map((column) => (compact(column) && column.narrow!.compactHeader ? column.narrow!.compactHeader : column.header)),
  };
}

const total = (widths: readonly number[]) => widths.reduce((sum, width) => sum + width, 0) + GAP * Math.max(0, widths.length - 1);

/**
 * Narrows columns until the table fits in `room`: one column at a time from the widest `first`
 * column, then from the widest of the others but `never` ones, none below its floor.
 */
export function fitWidths(natural: readonly number[], shrink: ReadonlyArray<Column<never>['shrink']>, room: number, floors: readonly number[] = natural.map(() => MIN_CUT)): number[] {
  const widths = [...natural];
  let excess = total(widths) - room;
  for (const phase of ['first', undefined] as const) {
    while (excess > 0) {
      let widest = -1;
      widths.forEach((width, i) => {
        if (shrink[i] === phase && width > floors[i]! && (widest < 0 || width > widths[widest]!)) widest = i;
      });
      if (widest < 0) break;
      widths[widest]!--;
      excess--;
    }
  }
  return widths;
}

/** The layout and widths for the first page: the least giving-way that fits `room`. */
function fit<Row>(all: ReadonlyArray<Column<Row>>, rows: ReadonlyArray<Row>, room: number): { layout: Layout<Row>; widths: number[] } {
  const stages = Math.max(0, ...all.flatMap((column) => [column.narrow?.drop ?? 0, column.narrow?.compact ?? 0]));
  const measure = (layout: Layout<Row>) => {
    const natural = layout.columns.map((column, i) =>
      Math.max(displayWidth(layout.headers[i]!), column.width ?? 0, ...rows.map((row) => displayWidth(safeText(layout.cell[i]!(row))))),
    );
    // A header is never cut: a column gives way down to MIN_CUT or its header, whichever is wider.
    const floors = layout.headers.map((header, i) => Math.min(natural[i]!, Math.max(MIN_CUT, displayWidth(header))));
    return { natural, floors, shrink: layout.columns.map((column) => column.shrink) };
  };
  let layout = layoutAt(all, 0);
  for (let stage = 0; stage <= stages; stage++) {
    layout = layoutAt(all, stage);
    const { natural, floors, shrink } = measure(layout);
    if (total(natural) <= room) return { layout, widths: natural };
    if (stage >= CUT_FROM_STAGE || stage === stages) {
      const cutWidths = fitWidths(natural, shrink, room, floors);
      if (total(cutWidths) <= room) return { layout, widths: cutWidths };
    }
  }
  // Still too wide: the columns that may (narrow.toHeader) are cut down to their header's width,
  // then columns are left out from the right (the least needed come last), never an id; with only
  // ids left, the line is cut at the edge.
  for (;;) {
    const { natural, floors, shrink } = measure(layout);
    const toHeader = floors.map((floor, i) => (layout.columns[i]!.narrow?.toHeader ? Math.min(natural[i]!, displayWidth(layout.headers[i]!)) : floor));
    const widths = fitWidths(natural, shrink, room, toHeader);
    const droppable = layout.columns.findLastIndex((column) => column.shrink !== 'never');
    if (total(widths) <= room || droppable < 0 || layout.columns.length === 1) return { layout, widths };
    layout = {
      columns: layout.columns.filter((_, i) => i !== droppable),
      cell: layout.cell.filter((_, i) => i !== droppable),
      headers: layout.headers.filter((_, i) => i !== droppable),
    };
  }
}

export function tableRows<Row>(io: IO, allColumns: ReadonlyArray<Column<Row>>, { label, hideEmptyColumns }: RowsOptions): Rows<Row> {
  let shape: { layout: Layout<Row>; widths: number[] } | undefined;
  const room = Math.max(20, io.columns);
  return {
    async add(rows) {
      if (rows.length === 0) return;
      const first = shape === undefined;
      if (!shape) {
        const columns = hideEmptyColumns ? allColumns.filter((column) => rows.some((row) => (column.display ?? column.value)(row) !== '')) : allColumns;
        shape = fit(columns, rows, room);
      }
      const { layout, widths } = shape;
      const last = widths.length - 1;
      const gap = ' '.repeat(GAP);
      // One measure per cell: cut to its column, padded (but the last), and the line cut at the edge
      // only when an id too long for its column pushed it out.
      const cuts = layout.columns.map((column) => (column.cut === 'host' ? cutKeepingHost : column.cut === 'cause' ? cutCause : cut));
      // A cell's style (colour) wraps its text once it is measured, cut and padded: the escapes take
      // no column, and are left out of a line that must be cut at the edge.
      const palette = io.palette('stdout');
      const line = (texts: string[], never: (i: number) => boolean, header = false, styles?: ReadonlyArray<Style | undefined>) => {
        let plain = '';
        let out = '';
        let used = 0;
        for (let i = 0; i <= last; i++) {
          let text = texts[i]!;
          let width = displayWidth(text);
          if (width > widths[i]! && !never(i)) {
            text = (header ? cut : cuts[i]!)(text, widths[i]!);
            width = displayWidth(text);
          }
          const style = styles?.[i];
          const shown = style !== undefined && text !== '' ? palette[style](text) : text;
          if (i < last) {
            const pad = ' '.repeat(Math.max(0, widths[i]! - width)) + gap;
            plain += text + pad;
            out += shown + pad;
            used += Math.max(width, widths[i]!) + GAP;
          } else {
            plain += text;
            out += shown;
            used += width;
          }
        }
        return used > room ? cut(plain.trimEnd(), room) : out.trimEnd();
      };
      let out = first && label !== undefined ? '\n' : '';
      if (first) out += `${palette.bold(line(layout.headers, () => false, true))}\n`;
      // An id is never cut: a longer one pushes its row out of line rather than lose characters.
      const never = (i: number) => layout.columns[i]!.shrink === 'never';
      const styled = layout.columns.some((column) => column.style !== undefined);
      for (const row of rows) {
        const styles = styled ? layout.columns.map((column) => column.style?.(row)) : undefined;
        out += `${line(layout.cell.map((value) => safeText(value(row))), never, false, styles)}\n`;
      }
      io.out(out);
    },
  };
}
