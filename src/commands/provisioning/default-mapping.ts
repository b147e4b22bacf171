// idm provisioning default-mapping <connection-id>: the mapping the connection's strategy starts from.
import { Command } from 'commander';
import type { Deps } from '../../cli/factory.js';
import { examples, paragraph } from '../../cli/help.js';
import { isPlainObject } from '../../core/text.js';
import { MAPPING_COLUMNS } from './format.js';
import { CONNECTION_ID_ARGUMENT, EXAMPLE_CONNECTION } from './show.js';

export function provisioningDefaultMappingCommand(deps: Deps, run = defaultMappingRun): Command {
  return new Command('default-mapping')
    .description("Show the default mapping of a connection's strategy")
    .addArgument(CONNECTION_ID_ARGUMENT())
    .addHelpText(
      'after',
      () =>
        `\n${paragraph('The service shows it only for a connection that has directory provisioning already (a 404 before): set it up with idm provisioning create CONNECTION, which starts from this mapping when given none.')}\n` +
        examples([`idm provisioning default-mapping ${EXAMPLE_CONNECTION}`, `idm provisioning default-mapping ${EXAMPLE_CONNECTION} --json | jq .mapping > mapping.json  # to edit, then: provisioning update --mapping-file`]),
    )
    .action((connectionId: string) => run({ connectionId }, deps));
}

export async function defaultMappingRun(options: { connectionId: string }, deps: Deps): Promise<void> {
  const { provisioning } = await deps.api();
  const { raw } = await provisioning.defaultMapping(options.connectionId);
  if (deps.output.json) return deps.output.printJson(raw);
  await deps.output.printRows(MAPPING_COLUMNS, (Array.isArray(raw.mapping) ? raw.mapping : []).filter(isPlainObject));
}
