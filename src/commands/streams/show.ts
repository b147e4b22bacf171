// idm streams show <stream-id> (alias get): one stream, whole, as a key/value record.
import { Argument, Command } from 'commander';
import type { Deps } from '../../cli/factory.js';
import { examples } from '../../cli/help.js';
import { parseId } from '../../cli/parse.js';
import { ID_SHAPES } from '../../schemas/ids.js';
import { streamFields } from './format.js';

export interface ShowOptions {
  streamId: string;
}

export const STREAM_ID_ARGUMENT = () => new Argument('<stream-id>', `the stream's id (${ID_SHAPES.stream.words})`).argParser(parseId('stream'));
const EXAMPLE_ID = ID_SHAPES.stream.example;

export function streamsShowCommand(deps: Deps, run = showRun): Command {
  return new Command('show')
    .alias('get')
    .description('Show one event stream: its destination, authorization, event types and times')
    .addArgument(STREAM_ID_ARGUMENT())
    .addHelpText('after', () => examples([`idm streams show ${EXAMPLE_ID}`, `idm streams show ${EXAMPLE_ID} --json | jq .destination`]))
    .action((streamId: string) => run({ streamId }, deps));
}

export async function showRun(options: ShowOptions, deps: Deps): Promise<void> {
  const { streams } = await deps.api();
  const stream = await streams.get(options.streamId);
  if (deps.output.json) return deps.output.printJson(stream);
  deps.output.printFields(streamFields(stream));
}
