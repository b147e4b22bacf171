// The shapes of tabular output, shared by ./index.ts and the lazily loaded ./table.ts.
import type { Palette } from '../io/io.js';

/** A style of the io palette: colour at a colour terminal, nothing otherwise. */
export type Style = keyof Palette;

export interface Column<Row> {
  header: string;
  value: (row: Row) => string;
  /**
   * How the column gives way when the table is wider than the terminal: `first` for free text
   * (names, endpoints, lists: the widest gives way first), `never` for ids; the others give way after
   * the `first` ones.
   */
  shrink?: 'first' | 'never';
  /**
   * How a value too long for the column is cut: at its end (default); `host`, keeping a URL's host and
   * the end of its path (destinations), or a host's start and its port (a profile's domain);
   * `cause`, an error message's: its start and its last words whole, a trailing address it named already left out (width.ts cutCause).
   */
  cut?: 'end' | 'host' | 'cause';
  /** The widest value any page may hold (an enum's longest), for when the first page does not show it. */
  width?: number;
  /** A shorter form for people, shown in the terminal's table; tab-separated output keeps `value`. */
  display?: (row: Row) => string;
  /**
   * How the column gives way at a narrow terminal, before any cell is cut: at stage `compact` it
   * shows `compactValue` instead (EVENT TYPES as a count), at stage `drop` it is left out (CREATED
   * first). Stages are tried in order; names are cut only from stage CUT_FROM_STAGE (output/table.ts).
   * `toHeader`: before a column after it is left out, cells are cut down to the header's width (a
   * stream's NAME, so that its STATUS stays).
   */
  narrow?: { drop?: number; compact?: number; compactHeader?: string; compactValue?: (row: Row) => string; toHeader?: boolean };
  /**
   * A style for this row's cell at a colour terminal (a failed status in red), applied after the
   * cell is measured, cut and padded; piped output and NO_COLOR show the text alone.
   */
  style?: (row: Row) => Style | undefined;
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
