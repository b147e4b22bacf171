// idm streams list: one page (or every page with --all) of the tenant's event streams, as a table at
// a terminal, tab-separated lines when piped, or the interface's own JSON with --json.
import { Command, InvalidArgumentError, Option } from 'commander';
import type { Deps } from '../../cli/factory.js';
import { examples } from '../../cli/help.js';
import { parseIntegerInRange } from '../../cli/parse.js';
import { shellCommand } from '../../core/text.js';
import { jsonPages } from '../../output/json-pages.js';
import { LIMITS } from '../../schemas/constants.js';
import { STREAM_COLUMNS, type StreamRecord } from './format.js';

export interface ListOptions {
  take?: number;
  from?: string;
  all: boolean;
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

export function parseCursor(value: string): string {
  // The cursor is opaque (the server judges it); only an empty one is certainly wrong.
  if (value.trim() === '') throw new InvalidArgumentError('--from must not be empty.');
  return value;
}

export async function listRun(opts: ListOptions, deps: Deps): Promise<void> {
  const { streams } = await deps.api();
  const { output, io } = deps;
  // --all asks for the largest pages: fewer round trips for the same streams.
  const take = opts.take ?? (opts.all ? LIMITS.takeMax : undefined);
  const query = { from: opts.from, take };

  if (!opts.all) {
    const page = await streams.list(query);
    if (output.json) return output.printJson(page.raw); // exactly as received
    await output.printRows(STREAM_COLUMNS, page.items as StreamRecord[]);
    if (page.items.length === 0 && io.stdoutIsTTY) output.note('No event streams.');
    if (page.next !== undefined && (io.stdoutIsTTY || io.stderrIsTTY)) {
      const { profile } = deps.globals();
      const command = ['idm', 'streams', 'list', '--from', page.next, '--take', take ?? LIMITS.takeDefault, ...(profile ? ['--profile', profile] : [])];
      output.note(`More streams: ${shellCommand(command)}`);
    }
    return;
  }

  // Every page, printed as it arrives: memory does not grow with the number of streams.
  const json = output.json ? jsonPages(io, 'eventStreams') : undefined;
  const table = output.rows(STREAM_COLUMNS);
  let shown = 0;
  for await (const page of streams.pages(query)) {
    if (json) json.add(page.raw);
    else await table.add(page.items as StreamRecord[]);
    shown += page.items.length;
  }
  json?.end();
  if (!json && shown === 0 && io.stdoutIsTTY) output.note('No event streams.');
}
