// idm streams enable <stream-id> / idm streams disable <stream-id>: `{"status": ...}` as a change.
import { Command } from 'commander';
import type { Deps } from '../../cli/factory.js';
import { examples } from '../../cli/help.js';
import { fieldText } from '../../output/index.js';
import { ID_SHAPES } from '../../schemas/ids.js';
import { streamFields } from './format.js';
import { STREAM_ID_ARGUMENT } from './show.js';

export interface StateOptions {
  streamId: string;
  status: 'enabled' | 'disabled';
}

export function streamsStateCommand(deps: Deps, verb: 'enable' | 'disable', run = stateRun): Command {
  const status = verb === 'enable' ? 'enabled' : 'disabled';
  return new Command(verb)
    .description(verb === 'enable' ? 'Enable an event stream: it forwards events again' : 'Disable an event stream: it stops forwarding events (and takes no test events)')
    .addArgument(STREAM_ID_ARGUMENT())
    .addHelpText('after', () => examples([`idm streams ${verb} ${ID_SHAPES.stream.example}`]))
    .action((streamId: string) => run({ streamId, status }, deps));
}

export async function stateRun(options: StateOptions, deps: Deps): Promise<void> {
  const { streams } = await deps.api();
  const stream = await streams.update(options.streamId, { status: options.status });
  const { output } = deps;
  if (output.json) return output.printJson(stream);
  output.printFields(streamFields(stream));
  // The answer is the stream after the change: one in another state than asked is said, not hidden
  // behind a note that reads as success (an answer without a status is tolerated).
  if (stream.status !== undefined && stream.status !== options.status) {
    output.warn({ message: `The service answered that stream ${fieldText(stream, 'id')} is ${fieldText(stream, 'status')}, not ${options.status}.`, hint: `See it with '${deps.command(['idm', 'streams', 'show', options.streamId])}'.` });
  } else output.note(`Stream ${fieldText(stream, 'id') || options.streamId} is ${stream.status === undefined ? options.status : fieldText(stream, 'status')}.`);
}
