// idm provisioning groups add | remove | set <connection-id> <group-id>...: change the list of
// synchronized groups (204 each). `set` replaces the whole list (--none empties it).
import { Argument, Command } from 'commander';
import type { Deps } from '../../../cli/factory.js';
import { examples } from '../../../cli/help.js';
import { UsageError } from '../../../core/errors.js';
import { hasUnsafeCharacters, plural, preview } from '../../../core/text.js';
import { CONNECTION_ID_ARGUMENT, EXAMPLE_CONNECTION } from '../show.js';

export type GroupsVerb = 'add' | 'remove' | 'set';

export interface GroupsChangeOptions {
  verb: GroupsVerb;
  connectionId: string;
  groupIds: string[];
  none?: boolean;
}

const DESCRIPTIONS: Record<GroupsVerb, string> = {
  add: 'Add groups to the synchronized groups',
  remove: 'Remove groups from the synchronized groups',
  set: 'Replace the synchronized groups with these (--none: no group)',
};

function checkGroupId(value: string): string {
  const id = value.trim();
  if (id === '' || id.length > 256 || hasUnsafeCharacters(id)) throw new UsageError(`"${preview(value)}" is not a group id: 1 to 256 characters, no control characters.`);
  return id;
}

export function groupsChangeCommand(deps: Deps, verb: GroupsVerb, run = groupsChangeRun): Command {
  const command = new Command(verb)
    .description(DESCRIPTIONS[verb])
    .addArgument(CONNECTION_ID_ARGUMENT())
    .addArgument(new Argument(verb === 'set' ? '[group-id...]' : '<group-id...>', "the directory groups' ids (see idm provisioning groups list)"));
  if (verb === 'set') command.option('--none', 'synchronize no group (an empty list)');
  return command
    .addHelpText('after', () => examples([`idm provisioning groups ${verb} ${EXAMPLE_CONNECTION} ${verb === 'set' ? '03ep43zb1xk6ay0 03ep43zb2fw2ma9' : '03ep43zb1xk6ay0'}`]))
    .action((connectionId: string, groupIds: string[] | undefined, flags: { none?: boolean }) => run({ verb, connectionId, groupIds: groupIds ?? [], none: flags.none }, deps));
}

export async function groupsChangeRun(options: GroupsChangeOptions, deps: Deps): Promise<void> {
  const { verb, connectionId } = options;
  const ids = [...new Set(options.groupIds.map(checkGroupId))];
  if (verb === 'set' && ids.length === 0 && !options.none) throw new UsageError('Give the group ids, or --none to synchronize no group.');
  if (options.none && ids.length > 0) throw new UsageError('--none means no group: give group ids or --none, not both.');
  const { provisioning } = await deps.api();
  const entries = ids.map((id) => ({ id }));
  if (verb === 'add') await provisioning.addGroups(connectionId, entries);
  else if (verb === 'remove') await provisioning.removeGroups(connectionId, entries);
  else await provisioning.setGroups(connectionId, entries);
  const done = verb === 'add' ? `Added ${plural(ids.length, 'group')} to` : verb === 'remove' ? `Removed ${plural(ids.length, 'group')} from` : `Set ${plural(ids.length, 'group')} as`;
  deps.output.note(`${done} the synchronized groups of ${connectionId}. See them: ${deps.command(['idm', 'provisioning', 'groups', 'list', connectionId])}`);
}
