// idm streams list: one page (or every page with --all) of the tenant's event streams, as a table at
// a terminal, tab-separated lines when piped, or the interface's own JSON with --json.
import { Command, InvalidArgumentError, Option } from 'commander';
import { ApiError } from '../../api/types.js';
import { badAnswer } from '../../api/errors.js';
import type { Deps } from '../../cli/deps.js';
import { examples } from '../../cli/help.js';
import { parseIntegerInRange } from '../../cli/parse.js';
import { asText as text, type Column } from '../../output/index.js';
import { LIMITS, SCOPES } from '../../schemas/constants.js';

export interface ListOptions {
  take?: number;
  from?: string;
  all: boolean;
}

/** A stream as received: every field may be missing or unexpected, and is shown as it is. */
type StreamRecord = Record<string, unknown>;
interface ListAnswer {
  eventStreams: StreamRecord[];
  next?: unknown;
  [key: string]: unknown;
}

export function streamsListCommand(deps: Deps, run = listRun): Command {
  return new Command('list')
    .description('List the event streams of the tenant')
    .addOption(
      new Option('--take <n>', `streams per page (${LIMITS.takeMin}-${LIMITS.takeMax}; default ${LIMITS.takeDefault}, 100 with --all)`).argParser(
        parseIntegerInRange('--take', LIMITS.takeMin, LIMITS.takeMax),
      ),
    )
    .option('--from <cursor>', 'start at this cursor (the `next` of a previous page)', parseCursor)
    .option('--all', 'follow `next` to the last page')
    .addHelpText(
      'after',
      examples([
        'idm streams list --take 20',
        'idm streams list --from <next> --take 20  # the following page',
        'idm streams list --all | cut -f1,2  # every stream, as TSV when piped',
        "idm streams list --all --json | jq -r '.eventStreams[] | select(.status == \"enabled\") | .id'",
      ]),
    )
    .action((flags: { take?: number; from?: string; all?: boolean }) => run({ take: flags.take, from: flags.from, all: Boolean(flags.all) }, deps));
}

function parseCursor(value: string): string {
  // The cursor is opaque (the server judges it); only an empty one is certainly wrong.
  if (value.trim() === '') throw new InvalidArgumentError('--from must not be empty.');
  return value;
}

/** type plus where events go: the endpoint, the region (and account), or the action. */
export function describeDestination(destination: unknown): string {
  if (!destination || typeof destination !== 'object') return text(destination);
  const { type, configuration } = destination as { type?: unknown; configuration?: Record<string, unknown> };
  const config = configuration && typeof configuration === 'object' ? configuration : {};
  let where: string;
  if (type === 'webhook') where = text(config.webhook_endpoint);
  else if (type === 'eventbus') where = [text(config.cloud_region), config.cloud_account_id ? `(${text(config.cloud_account_id)})` : ''].filter(Boolean).join(' ');
  else if (type === 'action') where = text(config.action_id);
  else where = text(Object.values(config).find((value) => typeof value === 'string'));
  return [text(type), where].filter(Boolean).join(' ');
}

// An entry that is not an object (null, a number) is shown as it is in the ID column, never a crash.
const field = (s: unknown, key: string): unknown => (s !== null && typeof s === 'object' ? (s as StreamRecord)[key] : key === 'id' ? s : undefined);

// At a terminal the free-text columns give way first when the table is too wide; the id never does.
export const STREAM_COLUMNS: ReadonlyArray<Column<StreamRecord>> = [
  { header: 'ID', value: (s) => text(field(s, 'id')), shrink: 'never' },
  { header: 'NAME', value: (s) => text(field(s, 'name')), shrink: 'first' },
  { header: 'STATUS', value: (s) => text(field(s, 'status')), width: LIMITS.streamStatusMax },
  { header: 'DESTINATION', value: (s) => describeDestination(field(s, 'destination')), shrink: 'first' },
  {
    header: 'EVENT TYPES',
    shrink: 'first',
    value: (s) => {
      const subscriptions = field(s, 'subscriptions');
      return Array.isArray(subscriptions) ? subscriptions.map((sub) => text((sub as { event_type?: unknown })?.event_type)).join(',') : text(subscriptions);
    },
  },
  {
    header: 'CREATED',
    value: (s) => text(field(s, 'created_at')),
    // At a terminal the minute is enough (UTC, as the service gives it); scripts get the full time.
    display: (s) => text(field(s, 'created_at')).replace(/^(\d{4}-\d\d-\d\d)T(\d\d:\d\d)[^ ]*Z$/, '$1 $2'),
  },
];

export async function listRun(opts: ListOptions, deps: Deps): Promise<void> {
  const api = await deps.api();
  const output = deps.output();
  const { json, profile } = deps.globals();
  // --all asks for the largest pages: fewer round trips for the same streams.
  const take = opts.take ?? (opts.all ? LIMITS.takeMax : undefined);
  let from = opts.from;
  let merged: ListAnswer | undefined; // --all --json only: the one output that must hold every stream
  const table = output.rows(STREAM_COLUMNS); // one table (or TSV) for every page, printed as they come
  const cursors = new Set<string>(from === undefined ? [] : [from]);
  let shown = 0;

  for (;;) {
    const { body, status } = await api.request<unknown>({
      method: 'GET',
      path: '/event-streams',
      query: { from, take },
      action: 'list event streams',
      scope: SCOPES.listStreams,
      hints: { 400: from ? 'Check --from: it takes the `next` value of a previous page, as printed.' : 'Check --take (1-100).' },
    });
    const page = checkPage(body, status, new URL(api.baseUrl).host);
    const next = typeof page.next === 'string' && page.next !== '' ? page.next : undefined;

    if (json) {
      if (!opts.all) {
        output.printJson(page); // exactly as received
        return;
      }
      if (!merged) merged = page;
      else merged.eventStreams.push(...page.eventStreams);
    } else if (page.eventStreams.length > 0) {
      await table.add(page.eventStreams);
      shown += page.eventStreams.length;
    }

    if (!opts.all || next === undefined) {
      if (!json && shown === 0 && deps.io.stdoutIsTTY) output.note('No event streams.');
      if (!json && !opts.all && next !== undefined && (deps.io.stdoutIsTTY || deps.io.stderrIsTTY)) {
        const profileFlag = profile ? ` --profile ${profile}` : '';
        output.note(`More streams: idm streams list --from ${next} --take ${take ?? LIMITS.takeDefault}${profileFlag}`);
      }
      break;
    }
    // A server that hands out a cursor seen before would be followed forever (A, B, A, ...). The set
    // holds one short string per page: 100 for 10,000 streams.
    if (cursors.has(next)) {
      throw new ApiError('Could not list every event stream: the server returned a cursor twice, so --all would never end.', {
        code: 'bad_response',
        hint: 'A fault of the service; the pages can still be read one at a time with --from.',
      });
    }
    cursors.add(next);
    from = next;
  }

  if (merged) {
    delete merged.next; // every page is in
    output.printJson(merged);
  }
}

/** The answer must at least carry a list of streams; anything else in it is kept as is. */
function checkPage(body: unknown, status: number, host: string): ListAnswer {
  if (body && typeof body === 'object' && !Array.isArray(body) && Array.isArray((body as ListAnswer).eventStreams)) return body as ListAnswer;
  throw badAnswer({ endpoint: 'management', action: 'list event streams', host }, status, 'no eventStreams list');
}
