// The subcommands of `idm streams`, each built only when it is the one run (commands/index.ts).
import { Command } from 'commander';
import { examples } from '../../cli/help.js';
import { ID_SHAPES } from '../../schemas/ids.js';
import type { Subcommand } from '../subcommand.js';
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

export const subcommands: readonly Subcommand[] = [
  { name: 'list', build: (deps) => streamsListCommand(deps) },
  { name: 'show', aliases: ['get'], build: (deps) => streamsShowCommand(deps) },
  { name: 'create', build: (deps) => streamsCreateCommand(deps) },
  { name: 'update', build: (deps) => streamsUpdateCommand(deps) },
  { name: 'enable', build: (deps) => streamsStateCommand(deps, 'enable') },
  { name: 'disable', build: (deps) => streamsStateCommand(deps, 'disable') },
  { name: 'delete', build: (deps) => streamsDeleteCommand(deps) },
  { name: 'test', build: (deps) => streamsTestCommand(deps) },
  {
    name: 'deliveries',
    build: (deps) =>
      new Command('deliveries')
        .description("A stream's failed deliveries: list them, show one")
        .addHelpText('after', () => examples([`idm streams deliveries list ${STREAM}`, `idm streams deliveries show ${STREAM} ${ID_SHAPES.event.example}`]))
        .addCommand(deliveriesListCommand(deps))
        .addCommand(deliveriesShowCommand(deps)),
  },
  { name: 'redeliver', build: (deps) => streamsRedeliverCommand(deps) },
  { name: 'stats', build: (deps) => streamsStatsCommand(deps) },
];
