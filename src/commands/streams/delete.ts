// idm streams delete <stream-id>: asks at a terminal (showing the stream's name and destination),
// needs --yes without one. The service answers 204 also for a stream that is already gone.
import { Command } from 'commander';
import type { Deps } from '../../cli/factory.js';
import { examples } from '../../cli/help.js';
import { CancelledError, UsageError } from '../../core/errors.js';
import { safeText } from '../../io/safe.js';
import { fieldText } from '../../output/index.js';
import { cut } from '../../output/width.js';
import { ID_SHAPES } from '../../schemas/ids.js';
import { describeDestination } from './format.js';
import { STREAM_ID_ARGUMENT } from './show.js';

export interface DeleteOptions {
  streamId: string;
  yes: boolean;
}

export function streamsDeleteCommand(deps: Deps, run = deleteRun): Command {
  return new Command('delete')
    .description('Delete an event stream (asks first at a terminal; --yes in scripts)')
    .addArgument(STREAM_ID_ARGUMENT())
    .option('-y, --yes', 'delete without asking')
    .addHelpText('after', () => examples([`idm streams delete ${ID_SHAPES.stream.example}`, `idm streams delete ${ID_SHAPES.stream.example} --yes --json`]))
    .action((streamId: string, flags: { yes?: boolean }) => run({ streamId, yes: Boolean(flags.yes) }, deps));
}

export async function deleteRun(options: DeleteOptions, deps: Deps): Promise<void> {
  const { io, output } = deps;
  const { streamId } = options;
  if (!options.yes && !io.canPrompt) {
    throw new UsageError(`Deleting stream ${streamId} needs --yes when idm cannot ask (${io.cannotAsk}).`, `Run '${deps.command(['idm', 'streams', 'delete', streamId, '--yes'])}'.`);
  }
  const { streams } = await deps.api();
  let gone = false;
  if (!options.yes) {
    // Asked with what is about to go: its name and where its events go. A client that may delete it
    // but not read it is asked without them (as provisioning delete does): the read only shows them.
    const found = await streams.findIfReadable(streamId);
    const stream = found === 'unreadable' ? undefined : found;
    gone = found === undefined;
    if (!gone) {
      const prompter = await deps.prompter();
      // The name and destination are the server's free text: a one-line question quotes at most 80
      // columns of each (as provisioning delete does its connection's name), cut between characters
      // (never inside an emoji's pair of UTF-16 units) and measured as the terminal draws them.
      const what = stream ? `, ${cut(safeText(fieldText(stream, 'name')), 80)} (${cut(safeText(describeDestination(stream)), 80)})` : '';
      if (!(await prompter.confirm(`Delete stream ${streamId}${what}?`, { default: false }))) throw new CancelledError('Cancelled: the stream was not deleted.');
    }
  }
  if (!gone) await streams.delete(streamId);
  // 204: nothing to print with --json.
  output.note(gone ? `Stream ${streamId} was already gone.` : `Deleted stream ${streamId}.`);
}
