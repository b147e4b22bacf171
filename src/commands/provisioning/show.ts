// idm provisioning show <connection-id> (alias get): the configuration, its mapping, and the last
// synchronization (time, status, error).
import { Argument, Command } from 'commander';
import type { Deps } from '../../cli/factory.js';
import { examples } from '../../cli/help.js';
import { parseId } from '../../cli/parse.js';
import { ID_SHAPES } from '../../schemas/ids.js';
import { printConfiguration } from './format.js';

export const CONNECTION_ID_ARGUMENT = (required = true) =>
  new Argument(required ? '<connection-id>' : '[connection-id]', `the connection (${ID_SHAPES.connection.words})`).argParser(parseId('connection'));
export const EXAMPLE_CONNECTION = ID_SHAPES.connection.example;

export function provisioningShowCommand(deps: Deps, run = showRun): Command {
  return new Command('show')
    .alias('get')
    .description('Show the directory-provisioning configuration of a connection')
    .addArgument(CONNECTION_ID_ARGUMENT())
    .addHelpText('after', () => examples([`idm provisioning show ${EXAMPLE_CONNECTION}`, `idm provisioning show ${EXAMPLE_CONNECTION} --json | jq .mapping`]))
    .action((connectionId: string) => run({ connectionId }, deps));
}

export async function showRun(options: { connectionId: string }, deps: Deps): Promise<void> {
  const { provisioning } = await deps.api();
  await printConfiguration(await provisioning.get(options.connectionId), deps);
}
