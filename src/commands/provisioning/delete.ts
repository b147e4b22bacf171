// idm provisioning delete <connection-id>: asks at a terminal, needs --yes without one.
import { Command } from 'commander';
import { isNotFound } from '../../api/errors.js';
import { isUnknownConnection, type ProvisioningApi } from '../../api/management/provisioning.js';
import type { Deps } from '../../cli/factory.js';
import { examples } from '../../cli/help.js';
import { CancelledError, UsageError } from '../../core/errors.js';
import { plural } from '../../core/text.js';
import { safeText } from '../../io/safe.js';
import { cut } from '../../output/width.js';
import { CONNECTION_ID_ARGUMENT, EXAMPLE_CONNECTION } from './show.js';

export interface ProvisioningDeleteOptions {
  connectionId: string;
  yes: boolean;
  /** Nothing to delete (deleted already, never set up, no such connection) is done, not an error. */
  ignoreNotFound?: boolean;
}

export function provisioningDeleteCommand(deps: Deps, run = deleteRun): Command {
  return new Command('delete')
    .description('Delete the directory-provisioning configuration of a connection (asks first at a terminal; --yes in scripts)')
    .addArgument(CONNECTION_ID_ARGUMENT())
    .option('-y, --yes', 'delete without asking')
    .option('--ignore-not-found', 'exit 0 when there is nothing to delete (deleted already, or never set up)')
    .addHelpText('after', () => examples([`idm provisioning delete ${EXAMPLE_CONNECTION}`, `idm provisioning delete ${EXAMPLE_CONNECTION} --yes --ignore-not-found  # a script that may run again`]))
    .action((connectionId: string, flags: { yes?: boolean; ignoreNotFound?: boolean }) => run({ connectionId, yes: Boolean(flags.yes), ignoreNotFound: Boolean(flags.ignoreNotFound) }, deps));
}

export async function deleteRun(options: ProvisioningDeleteOptions, deps: Deps): Promise<void> {
  const { connectionId } = options;
  if (!options.yes && !deps.io.canPrompt) {
    throw new UsageError(`Deleting the provisioning of ${connectionId} needs --yes when idm cannot ask (${deps.io.cannotAsk}).`, `Run '${deps.command(['idm', 'provisioning', 'delete', connectionId, '--yes'])}'.`);
  }
  const { provisioning } = await deps.api();
  try {
    await deleteIt(options, provisioning, deps);
  } catch (error) {
    // As kubectl's flag: the configuration is not there, which is what a delete is for.
    if (!(options.ignoreNotFound && isNotFound(error))) throw error;
    deps.output.note(`Nothing to delete: ${isUnknownConnection(error) ? `there is no connection ${connectionId} in the tenant` : `${connectionId} has no directory provisioning (deleted already, or never set up)`}.`);
  }
}

async function deleteIt(options: ProvisioningDeleteOptions, provisioning: ProvisioningApi, deps: Deps): Promise<void> {
  const { connectionId } = options;
  if (!options.yes) {
    // What is about to go: the connection's name and how much it maps (a 404 is reported as is). A
    // client that may delete it but not read it is asked without them: the read only shows them.
    const current = (await provisioning.getToDelete(connectionId)) ?? {};
    const prompter = await deps.prompter();
    // The name is the server's free text: a one-line question quotes at most 80 columns of it, cut
    // between characters (never inside an emoji) and measured as the terminal draws them.
    const name = typeof current.connection_name === 'string' ? ` (${cut(safeText(current.connection_name), 80)})` : '';
    const rows = Array.isArray(current.mapping) ? `, ${plural(current.mapping.length, 'mapped attribute')}` : '';
    if (!(await prompter.confirm(`Delete the directory provisioning of ${connectionId}${name}${rows}? Users and groups stop synchronizing.`, { default: false }))) {
      throw new CancelledError('Cancelled: the configuration was not deleted.');
    }
  }
  const { lostAnswer } = await provisioning.delete(connectionId);
  // The answer to an earlier attempt was lost, and the one sent again found nothing left to delete.
  deps.output.note(`Deleted the directory provisioning of ${connectionId}.${lostAnswer ? ' (It was sent more than once; the last attempt found none left.)' : ''}`);
}
