// What every paginated command does with its pages (streams, deliveries, connections, provisioning,
// groups): one page, or every page with --all, as a table at a terminal, TSV when piped, or JSON as
// received (--all --json: one document equal to the merged pages, written as they arrive). At a
// terminal, a note names the command for the next page (Deps.command: shell-quoted, with --profile).
import { type Command, InvalidArgumentError, Option } from 'commander';
import type { Page } from '../api/paginate.js';
import type { Column } from '../output/index.js';
import { jsonPages } from '../output/json-pages.js';
import { LIMITS } from '../schemas/constants.js';
import type { Deps } from './factory.js';
import { checkText, once, parseIntegerInRange } from './parse.js';

export interface ListingFlags {
  take?: number;
  from?: string;
  all: boolean;
}

export interface Listing<Row> {
  /** The key of the list in a page (`eventStreams`, `deliveries`, ...). */
  key: string;
  columns: ReadonlyArray<Column<Row>>;
  /** Said at a terminal when there is nothing: "No event streams." */
  empty: string;
  /** Starts the next-page note: "More streams". */
  more: string;
  /** The command that reads the next page, without --from/--take/--profile: ['idm', 'streams', 'list']. */
  again: Array<string | number>;
  /**
   * A page with fewer items than the `take` sent is the last, whatever its `next` says: the service
   * lists deliveries with a `next` whenever `take` is sent, and it leads to an empty page
   * (wire-facts.md). No next-page note then; --all still follows it (it ends at that empty page).
   */
  shortPageIsLast?: boolean;
  page(query: { from?: string; take?: number }): Promise<Page>;
  pages(query: { from?: string; take?: number }): AsyncIterable<Page>;
  /** Keeps what the listing showed for shell completion (config/recent.ts): the first rows, at most RECENT_ROWS. */
  remember?(rows: Row[]): Promise<void>;
}

/** Rows a listing hands to `remember`: more than a TAB would ever show. */
const RECENT_ROWS = 1_000;

function parseCursor(value: string): string {
  // The cursor is opaque (the server judges it); only an empty one, or one with control characters
  // (never in a `next` idm prints), is certainly wrong.
  if (value.trim() === '') throw new InvalidArgumentError(value === '' ? '--from must not be empty.' : '--from holds only spaces: give the `next` of a previous page.');
  return checkText('--from')(value);
}

/**
 * --take, --from and --all, the same on every paginated command; `what` names the rows ("streams").
 * `unpaged`: what a listing gets without --take or --from, for one whose service then answers it all
 * in one list (connections), not a page of the default size.
 */
export function addListingOptions(command: Command, what: string, unpaged?: string): Command {
  return command
    .addOption(
      new Option('--take <n>', `${what} per page (${LIMITS.takeMin}-${LIMITS.takeMax}; ${unpaged === undefined ? `default ${LIMITS.takeDefault}, 100 with --all` : `100 with --all; ${unpaged}`})`).argParser(
        once('--take', parseIntegerInRange('--take', LIMITS.takeMin, LIMITS.takeMax)),
      ),
    )
    .option('--from <cursor>', 'start at this cursor (the `next` of a previous page)', once('--from', parseCursor))
    .option('--all', 'follow `next` to the last page');
}

/** The listing flags as commander parsed them. */
export function listingFlags(flags: { take?: number; from?: string; all?: boolean }): ListingFlags {
  return { take: flags.take, from: flags.from, all: Boolean(flags.all) };
}

export async function printListing<Row>(flags: ListingFlags, listing: Listing<Row>, deps: Deps): Promise<void> {
  const { io, output } = deps;
  // --all asks for the largest pages: fewer round trips for the same rows.
  const query = { from: flags.from, take: flags.take ?? (flags.all ? LIMITS.takeMax : undefined) };
  if (!flags.all) {
    const page = await listing.page(query);
    await listing.remember?.((page.items as Row[]).slice(0, RECENT_ROWS));
    if (output.json) return output.printJson(page.raw); // exactly as received
    await output.printRows(listing.columns, page.items as Row[]);
    if (page.items.length === 0 && io.stdoutIsTTY) output.note(listing.empty);
    const short = listing.shortPageIsLast === true && query.take !== undefined && page.items.length < query.take;
    if (page.next !== undefined && !short && (io.stdoutIsTTY || io.stderrIsTTY)) {
      // A cursor that starts with a dash goes in the flag's own word (`--from=-x`): as a word of its
      // own it would read as a flag (a cursor `--profile=prod`), and the command would not work.
      const from = page.next.startsWith('-') ? [`--from=${page.next}`] : ['--from', page.next];
      output.note(`${listing.more}: ${deps.command([...listing.again, ...from, '--take', query.take ?? LIMITS.takeDefault])}`);
    }
    return;
  }
  // Every page, printed as it arrives: memory does not grow with the number of rows.
  const json = output.json ? jsonPages(io, listing.key) : undefined;
  const table = output.rows(listing.columns);
  let shown = 0;
  const recent: Row[] = [];
  for await (const page of listing.pages(query)) {
    if (recent.length < RECENT_ROWS) recent.push(...(page.items as Row[]).slice(0, RECENT_ROWS - recent.length));
    // A bare list (some endpoints' answer without paging) is the whole answer, as received.
    if (json && Array.isArray(page.raw)) return output.printJson(page.raw);
    if (json) json.add(page.raw);
    else await table.add(page.items as Row[]);
    shown += page.items.length;
  }
  json?.end();
  await listing.remember?.(recent);
  if (!json && shown === 0 && io.stdoutIsTTY) output.note(listing.empty);
}
