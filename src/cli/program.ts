// The command tree. Builders only declare flags and hand parsed values to run functions; run
// functions get their services from Deps and load heavy modules themselves, so that building this
// tree (done on every start, and for completions) stays cheap.
import { Command, Option } from 'commander';
import { authStatusCommand } from '../commands/auth/status.js';
import { completionCommand } from '../commands/completion.js';
import { loginCommand } from '../commands/login.js';
import { logoutCommand } from '../commands/logout.js';
import { provisioningCreateCommand } from '../commands/provisioning/create.js';
import { sandboxStartCommand } from '../commands/sandbox/start.js';
import { streamsListCommand } from '../commands/streams/list.js';
import { streamsTestCommand } from '../commands/streams/test.js';
import type { Deps } from './deps.js';
import { exitCodeHelp } from './exit-codes.js';
import { examples } from './help.js';
import { parsePath, parsePositiveSeconds } from './parse.js';

import { VERSION } from './version.js';

export function buildProgram(deps: Deps): Command {
  const program = new Command('idm')
    .description('Administer the event streams and directory provisioning of an identity-platform tenant.')
    .version(VERSION, '-V, --version', 'print the version')
    .option('--json', 'print JSON for scripts (errors too, on stderr)')
    .option('-p, --profile <name>', 'use this stored profile (default: IDM_PROFILE or the default profile)')
    .option('--no-color', 'no colour (also NO_COLOR, TERM=dumb, or output not a terminal)')
    .option('--no-input', 'never prompt; a missing value is a usage error')
    .option('--debug', 'print requests and responses on stderr, secrets redacted')
    .addOption(new Option('--timeout <seconds>', 'bound on each request (default 30)').env('IDM_TIMEOUT').argParser(parsePositiveSeconds('--timeout')))
    .addOption(new Option('--max-wait <seconds>', 'longest total wait for rate limits and retries (default 60)').env('IDM_MAX_WAIT').argParser(parsePositiveSeconds('--max-wait')))
    .addOption(new Option('--ca-file <path>', 'also trust this PEM certificate authority (a private CA)').env('IDM_CA_FILE').argParser(parsePath('--ca-file')))
    .addOption(new Option('--client-cert <path>', 'PEM client certificate for mutual TLS').env('IDM_CLIENT_CERT').argParser(parsePath('--client-cert')))
    .addOption(new Option('--client-key <path>', 'PEM private key of --client-cert (a path, never the key itself)').env('IDM_CLIENT_KEY').argParser(parsePath('--client-key')))
    .showSuggestionAfterError(true)
    .addHelpText(
      'after',
      `${examples([
        'idm sandbox start  # a local tenant to try idm against',
        'idm login --domain tenant.example.com --client-id ID --client-secret-file secret.txt',
        'idm streams list --take 20',
        'idm streams test est_... --event-type user.created',
        'idm provisioning create con_...  # asks at a terminal',
      ])}\n${exitCodeHelp()}\n`,
    );

  program.addCommand(loginCommand(deps));
  program.addCommand(logoutCommand(deps));
  program.addCommand(new Command('auth').description('Inspect the stored credentials and token').addCommand(authStatusCommand(deps)));
  program.addCommand(
    new Command('streams')
      .description('List event streams and send them test events')
      .addCommand(streamsListCommand(deps))
      .addCommand(streamsTestCommand(deps)),
  );
  program.addCommand(
    new Command('provisioning')
      .description('Configure directory provisioning of a connection')
      .addCommand(provisioningCreateCommand(deps)),
  );
  program.addCommand(
    new Command('sandbox')
      .description('Run a local tenant on 127.0.0.1 that speaks the management interface')
      .addCommand(sandboxStartCommand(deps)),
  );
  program.addCommand(completionCommand(deps, program));
  return program;
}
