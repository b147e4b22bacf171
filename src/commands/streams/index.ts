// The subcommands of `idm streams`, loaded only when the command run is one of them (commands/index.ts).
import { Command } from 'commander';
import type { Deps } from '../../cli/factory.js';
import { examples } from '../../cli/help.js';
import { ID_SHAPES } from '../../schemas/ids.js';
import { streamsCreateCommand } from './create.js';
import { streamsDeleteCommand } from './delete.js';
import { deliveriesListCommand } from './deliveries/list.js';
import { deliveriesShowCommand } from './deliveries/show.js';
import { streamsListCommand } from './list.js';
import { streamsRedeliverCommand } from './redeliver.js';
import { streamsShowCommand } from './show.js';
import { streamsStateCommand } from './state.js';
import { streamsStatsCommand } from './stats.js';
import { streamsTestCommand } from './test.js';
import { streamsUpdateCommand } from './update.js';

const STREAM = ID_SHAPES.stream.example;

export function subcommands(deps: Deps): Command[] {
  const deliveries = new Command('deliveries')
    .description("A stream's failed deliveries: list them, show one")
    .addHelpText('after', examples([`idm streams deliveries list ${STREAM}`, `idm streams deliveries show ${STREAM} ${ID_SHAPES.event.example}`]))
    .addCommand(deliveriesListCommand(deps))
    .addCommand(deliveriesShowCommand(deps));
  return [
    streamsListCommand(deps),
    streamsShowCommand(deps),
    streamsCreateCommand(deps),
    streamsUpdateCommand(deps),
    streamsStateCommand(deps, 'enable'),
    streamsStateCommand(deps, 'disable'),
    streamsDeleteCommand(deps),
    streamsTestCommand(deps),
    deliveries,
    streamsRedeliverCommand(deps),
    streamsStatsCommand(deps),
  ];
}
