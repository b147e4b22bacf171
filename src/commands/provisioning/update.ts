// idm provisioning update <connection-id>: a PATCH from flags. --mapping (repeatable) or
// --mapping-file replace the whole mapping, as PATCH does; --add-mapping and --remove-mapping read
// the current one, change it and write it whole. At a terminal without flags: the wizard, from the
// current configuration, with a summary of what changes and a confirmation.
import { Command, Option } from 'commander';
import type { ApiRecord, MappingRow, ProvisioningBody } from '../../api/management/index.js';
import type { Deps } from '../../cli/factory.js';
import { examples } from '../../cli/help.js';
import { once, parseChoice, refuseBothSwitches, repeatable } from '../../cli/parse.js';
import { IdmError, UsageError } from '../../core/errors.js';
import { isPlainObject, plural, shellCommand, type CommandLine } from '../../core/text.js';
import { SYNC_GROUPS, type SyncGroups } from '../../schemas/constants.js';
import { rowMapping } from '../../schemas/mapping.js';
import { bodyFields, checkedMappingRow, checkedPlatformAttribute, checkProvisioningBody, mappingSource, noMappingList, sendableRow } from './body.js';
import { noteSelectedWithoutGroups, printConfiguration } from './format.js';
import { CONNECTION_ID_ARGUMENT, EXAMPLE_CONNECTION } from './show.js';

export interface ProvisioningUpdateOptions {
  connectionId: string;
  mapping?: string[];
  mappingFile?: string;
  addMapping?: string[];
  removeMapping?: string[];
  syncAutomatically?: boolean;
  syncGroups?: SyncGroups;
}

const collect = repeatable((value: string, previous: string[] | undefined): string[] => [...(previous ?? []), value]);

export function provisioningUpdateCommand(deps: Deps, run = updateRun): Command {
  const command = new Command('update')
    .description('Change the directory-provisioning configuration of a connection: mapping, synchronization')
    .addArgument(CONNECTION_ID_ARGUMENT())
    .option('--mapping <platform=idp>', 'the whole mapping, one row each (replaces it)', collect)
    .option('--mapping-file <path>', 'the whole mapping: a JSON array of {"platform", "idp"}, or - for stdin', once('--mapping-file'))
    .option('--add-mapping <platform=idp>', 'map one more attribute (repeat for each)', collect)
    .option('--remove-mapping <platform>', 'stop mapping this platform attribute (repeat for each)', collect)
    .option('--sync-automatically', 'synchronize users every 30 minutes')
    .option('--no-sync-automatically', 'stop synchronizing users automatically')
    .addOption(new Option('--sync-groups <mode>', 'group synchronization').choices(SYNC_GROUPS).argParser(once('--sync-groups', parseChoice('--sync-groups', SYNC_GROUPS))))
    .addHelpText(
      'after',
      () => examples([
        `idm provisioning update ${EXAMPLE_CONNECTION}  # at a terminal: edit the current settings`,
        `idm provisioning update ${EXAMPLE_CONNECTION} --add-mapping nickname=name.givenName --remove-mapping is_admin`,
        `idm provisioning update ${EXAMPLE_CONNECTION} --sync-automatically --sync-groups selected`,
        `idm provisioning update ${EXAMPLE_CONNECTION} --mapping-file mapping.json --json`,
      ]),
    );
  return refuseBothSwitches(command, 'sync-automatically').action((connectionId: string, flags: Omit<ProvisioningUpdateOptions, 'connectionId'>) => run({ connectionId, ...flags }, deps));
}

export async function updateRun(options: ProvisioningUpdateOptions, deps: Deps): Promise<void> {
  const { connectionId } = options;
  // Every check of the flags comes before the first request: exit 2 means nothing was sent.
  const body = await bodyFields(options, deps.io);
  // One platform attribute removed twice is one row removed (the second must not read as a row the mapping lacks).
  const removing = [...new Set((options.removeMapping ?? []).map((value) => checkedPlatformAttribute(value, '--remove-mapping')))];
  // One row added twice, as it is, is one row added (as --remove-mapping's and group ids' repeats).
  const adding: MappingRow[] = [];
  for (const row of (options.addMapping ?? []).map((value) => checkedMappingRow(value, '--add-mapping'))) {
    const earlier = rowMapping(adding, row.platform);
    if (earlier < 0) adding.push(row);
    else if (adding[earlier]!.idp !== row.idp) throw new UsageError(`--add-mapping maps "${row.platform}" twice (to ${adding[earlier]!.idp} and to ${row.idp}).`, 'Give each platform attribute once.');
  }

  const { provisioning } = await deps.api();
  if (options.addMapping !== undefined || options.removeMapping !== undefined) {
    // Read, change, write the whole list: the service replaces the mapping it is sent.
    const { rows, removed } = currentRows(connectionId, await provisioning.get(connectionId), removing, deps.command);
    for (const platform of removing) {
      const at = rowMapping(rows, platform);
      if (at < 0 && removed.has(platform)) continue;
      if (at < 0) {
        // A row written as --add-mapping takes it (email=primaryEmail): its platform attribute is the one meant.
        const meant = platform.includes('=') ? rows[rowMapping(rows, platform.slice(0, platform.indexOf('=')).trim())] : undefined;
        throw new UsageError(
          `--remove-mapping ${platform}: the mapping has no row for "${platform}".`,
          meant
            ? `--remove-mapping takes the platform attribute alone: ${shellCommand(['--remove-mapping', meant.platform])} (its row is ${meant.platform} = ${meant.idp}).`
            : `See the mapping with '${deps.command(['idm', 'provisioning', 'show', connectionId])}'.`,
        );
      }
      rows.splice(at, 1);
    }
    // A row mapped already is replaced by removing it in the same run: the hint is this run's command
    // with a --remove-mapping for each such row, the other flags as given.
    // A row the mapping holds as it is (a script run again) changes nothing: it is not an error.
    const there = adding.filter((row) => rows[rowMapping(rows, row.platform)]?.idp === row.idp);
    const mapped = adding.filter((row) => rowMapping(rows, row.platform) >= 0 && !there.includes(row));
    if (mapped.length > 0) {
      const row = mapped[0]!;
      const again = [
        'idm', 'provisioning', 'update', connectionId,
        ...[...removing, ...mapped.map((each) => each.platform)].flatMap((platform) => ['--remove-mapping', platform]),
        ...adding.flatMap((each) => ['--add-mapping', `${each.platform}=${each.idp}`]),
        ...(options.syncAutomatically === undefined ? [] : [options.syncAutomatically ? '--sync-automatically' : '--no-sync-automatically']),
        ...(options.syncGroups === undefined ? [] : ['--sync-groups', options.syncGroups]),
      ];
      throw new UsageError(
        `--add-mapping ${row.platform}=${row.idp}: "${row.platform}" is mapped already (to ${rows[rowMapping(rows, row.platform)]!.idp})${mapped.length > 1 ? `, and so ${mapped.length === 2 ? 'is' : 'are'} ${mapped.slice(1).map((each) => `"${each.platform}"`).join(', ')}` : ''}.`,
        `Replace ${mapped.length === 1 ? 'it' : 'them'}: ${deps.command(again)}`,
      );
    }
    rows.push(...adding.filter((row) => !there.includes(row)));
    if (there.length > 0) {
      const rowsThere = `${there.map((row) => `${row.platform}=${row.idp}`).join(', ')} ${there.length === 1 ? 'is' : 'are'} in the mapping of ${connectionId} already`;
      if (removing.length === 0 && there.length === adding.length) {
        // The mapping is as asked: it is not sent, and with no other setting nothing is.
        if (Object.keys(body).length === 0) return deps.output.note(`Nothing changed: ${rowsThere}; nothing was sent.`);
        deps.output.note(`${rowsThere}: the mapping is not sent.`);
      } else {
        deps.output.note(`${rowsThere}: not added again.`);
      }
    }
    if (removing.length > 0 || there.length < adding.length) {
      if (rows.length === 0) {
        throw new UsageError(
          `--remove-mapping would leave the mapping of ${connectionId} empty, and a configuration needs at least one row.`,
          `Keep a row, or add one with --add-mapping; to stop provisioning the connection, run '${deps.command(['idm', 'provisioning', 'delete', connectionId])}'.`,
        );
      }
      body.mapping = rows;
    }
  }
  let checked: ProvisioningBody;
  if (Object.keys(body).length === 0) {
    if (!deps.io.canPrompt) {
      throw new UsageError(
        'Nothing to change.',
        `idm cannot ask here (${deps.io.cannotAsk}): give --mapping, --mapping-file, --add-mapping, --remove-mapping, --sync-automatically, --no-sync-automatically or --sync-groups; run '${shellCommand(['idm', 'provisioning', 'update', '--help'])}'.`,
      );
    }
    const { runUpdateWizard } = await import('./wizard.js');
    const changed = await runUpdateWizard(connectionId, await provisioning.get(connectionId), deps);
    // The same settings chosen again: nothing to send, and nothing went wrong.
    if (changed === undefined) return deps.output.note('Nothing changed: nothing was sent.');
    checked = changed;
  } else {
    checked = await checkProvisioningBody(body, mappingSource(options, 'the mapping'));
  }
  const answer = await provisioning.update(connectionId, checked);
  await printConfiguration(answer, deps, { verb: 'Updated', connectionId });
  await noteSelectedWithoutGroups(connectionId, checked, answer, deps);
}

/**
 * The current mapping's rows, to change and send back whole. An entry idm could not send back as it
 * is (not two strings, breaking the mapping's rules, or with another field) stops it: writing the rest would drop it.
 * One whose platform attribute --remove-mapping names is the one way out of such an entry (an empty
 * idp, say): it is left out, as asked (`removed`).
 */
function currentRows(connectionId: string, current: ApiRecord, removing: readonly string[], command: CommandLine): { rows: MappingRow[]; removed: Set<string> } {
  // No list (absent, null...) says nothing of what the service holds: written whole, the rows added
  // here would replace it.
  if (!Array.isArray(current.mapping)) throw noMappingList(connectionId, current.mapping, '--add-mapping and --remove-mapping', command);
  const entries: unknown[] = current.mapping;
  const rows: MappingRow[] = [];
  const removed = new Set<string>();
  let left = 0;
  for (const entry of entries) {
    const row = sendableRow(entry);
    if (row) rows.push(row);
    else if (isPlainObject(entry) && typeof entry.platform === 'string' && removing.includes(entry.platform.trim())) removed.add(entry.platform.trim());
    else left += 1;
  }
  if (left > 0) {
    throw new IdmError(
      `The current mapping of ${connectionId} has ${plural(left, 'entry', 'entries')} that idm cannot send back as ${left === 1 ? 'it is' : 'they are'}: --add-mapping and --remove-mapping would drop ${left === 1 ? 'it' : 'them'}.`,
      {
        code: 'unreadable_mapping',
        hint: `See it with '${command(['idm', 'provisioning', 'show', connectionId, '--json'])}', then give the whole mapping with --mapping-file.`,
      },
    );
  }
  return { rows, removed };
}
