// idm provisioning sync <connection-id>: asks for a synchronization now. The service refuses a
// second one within 30 minutes of the last (400) and while one runs (409): both are explained, the
// first with when it can be asked again, when the configuration says when the last one ran.
import { Command } from 'commander';
import type { Deps } from '../../cli/factory.js';
import { examples } from '../../cli/help.js';
import { isSyncTooSoon } from '../../api/errors.js';
import { instantOf, utcSeconds } from '../../core/time.js';
import { asText as text, fieldText } from '../../output/index.js';
import { CONNECTION_ID_ARGUMENT, EXAMPLE_CONNECTION } from './show.js';

/** The service allows one synchronization per connection in this long (wire-facts.md). */
const SYNC_INTERVAL_MS = 30 * 60_000;

export function provisioningSyncCommand(deps: Deps, run = syncRun): Command {
  return new Command('sync')
    .description('Synchronize users (and groups) of a connection now, instead of at the next automatic run')
    .addArgument(CONNECTION_ID_ARGUMENT())
    .addHelpText('after', () => examples([`idm provisioning sync ${EXAMPLE_CONNECTION}`, `idm provisioning sync ${EXAMPLE_CONNECTION} --json | jq -r .synchronization_id`]))
    .action((connectionId: string) => run({ connectionId }, deps));
}

export async function syncRun(options: { connectionId: string }, deps: Deps): Promise<void> {
  const { connectionId } = options;
  const { provisioning } = await deps.api();
  const { output } = deps;
  let answer;
  try {
    answer = await provisioning.synchronize(connectionId);
  } catch (error) {
    if (isSyncTooSoon(error)) error.hint = await whenAgain(connectionId, deps);
    throw error;
  }
  if (output.json) return output.printJson(answer);
  output.printFields([
    ['Connection', fieldText(answer, 'connection_id')],
    ['Synchronization', fieldText(answer, 'synchronization_id')],
    ['Status', fieldText(answer, 'status')],
  ]);
  output.note(`Follow it with: ${deps.command(['idm', 'provisioning', 'show', connectionId])} (the last synchronization's time, status and error).`);
}

/**
 * When it can be asked again: 30 minutes after the configuration's last synchronization time (the
 * only time the service tells; the sandbox counts from it too). Only the service's times are used:
 * the local clock may differ from the tenant's, so no "in N minutes" is computed from it.
 */
async function whenAgain(connectionId: string, deps: Deps): Promise<string> {
  const every = 'Automatic synchronization runs every 30 minutes.';
  try {
    const { provisioning } = await deps.api();
    // An RFC 3339 time only: Date.parse would read one without a zone on the local clock.
    const last = instantOf(text((await provisioning.get(connectionId)).last_synchronization_at));
    if (last !== undefined) return `The last one ran at ${utcSeconds(last)}: ask again after ${utcSeconds(last + SYNC_INTERVAL_MS, true)}. ${every}`;
  } catch {
    // the hint below is true without the time
  }
  return `A connection can be synchronized once every 30 minutes; ask again later. ${every}`;
}
