// What a command's run function receives (after the GitHub CLI's Factory): the IO, the output,
// the parsed global flags, and services that are built on first use and only then load their
// modules (the management client, the prompter). Tests hand run functions a factory of their own.
import { createApiClient, DEFAULT_MAX_WAIT_SECONDS, DEFAULT_TIMEOUT_SECONDS, type ApiClient } from '../api/client.js';
import { createManagement, type Management } from '../api/management/index.js';
import { waitWords } from '../api/retry.js';
import { loadTls, type TlsFiles } from '../api/tls.js';
import { resolveCredentials, type Resolved } from '../config/resolve.js';
import { type IdmError, UsageError } from '../core/errors.js';
import { capitalize, shellCommand, type CommandLine } from '../core/text.js';
import type { IO } from '../io/io.js';
import { countdown, spinner } from '../io/progress.js';
import type { Prompter } from '../io/prompter.js';
import { createOutput, type Output } from '../output/index.js';
import type { GlobalOptions } from './program.js';

export interface Deps {
  io: IO;
  output: Output;
  globals(): GlobalOptions;
  /**
   * A command idm prints for the user to run against the tenant (a hint, the next page): the words
   * shell-quoted, then `--profile NAME` when the run chose its profile (--profile or IDM_PROFILE).
   * Pasted in another shell, or after `idm profiles use`, it still acts on this run's tenant.
   */
  command: CommandLine;
  /** The typed management client for the selected profile: credentials resolved, token cached. */
  api(): Promise<Management>;
  /** A management client for credentials that are not stored yet (login proves them with it). */
  apiFor(credentials: Resolved): Promise<Management>;
  prompter(): Promise<Prompter>;
  /**
   * Set by a command whose result is a failure although it printed its data (a failed test
   * delivery: 3; its outcome not known in time: 6). The command has said it in words; main ends
   * with its exit code and, with --json, its error object as the last line, as for every failure.
   */
  failure?: IdmError;
  /** Releases what was built (keep-alive connections). */
  close(): Promise<void>;
}

/**
 * The TLS files of a run: the flags (or IDM_CA_FILE, IDM_CLIENT_CERT, IDM_CLIENT_KEY), else the
 * profile's CA and, for tls_client_auth, its certificate and key. A tls_client_auth client without
 * a certificate, or on plain HTTP, could only be refused: said before anything is sent.
 */
export function tlsFiles(flags: GlobalOptions, credentials: Resolved): TlsFiles {
  const { client } = credentials;
  // A file the profile stored is named as the profile's, not as a flag the user never gave.
  const stored = (what: string) => `The ${what} of profile "${credentials.profile ?? 'default'}"`;
  const files: TlsFiles = {
    caFile: flags.caFile ?? credentials.caFile,
    clientCert: flags.clientCert ?? client?.clientCert,
    clientKey: flags.clientKey ?? client?.clientKey,
    names: {
      caFile: flags.caFile === undefined && credentials.caFile !== undefined ? stored('CA file') : undefined,
      clientCert: flags.clientCert === undefined && client?.clientCert !== undefined ? stored('client certificate') : undefined,
      clientKey: flags.clientKey === undefined && client?.clientKey !== undefined ? stored('client key') : undefined,
    },
  };
  if (client?.authMethod === 'tls_client_auth') {
    if (credentials.tenant.base.startsWith('http:')) {
      throw new UsageError(`tls_client_auth needs an https:// domain: the client certificate is presented in the TLS handshake, and ${credentials.tenant.base} is plain HTTP.`);
    }
    if (files.clientCert === undefined && files.clientKey === undefined) {
      throw new UsageError('tls_client_auth proves the client with a certificate: give --client-cert and --client-key (or IDM_CLIENT_CERT and IDM_CLIENT_KEY).');
    }
  }
  return files;
}

export function createDeps(io: IO, globals: () => GlobalOptions): Deps {
  const output = createOutput(io);
  const command: CommandLine = (words) => {
    const { profile } = globals();
    return shellCommand(profile === undefined ? words : [...words, '--profile', profile]);
  };
  const clients: ApiClient[] = [];
  let api: Promise<Management> | undefined;
  // The same action again and again is a listing going page by page: its spinner counts them.
  let last = { action: '', count: 0 };
  const activityLabel = (action: string) => {
    last = action === last.action ? { action, count: last.count + 1 } : { action, count: 1 };
    return `${capitalize(action)}${last.count > 1 ? ` (page ${last.count})` : ''}…`;
  };

  async function build(credentials: Resolved): Promise<Management> {
    const flags = globals();
    for (const warning of credentials.warnings) output.warn(warning);
    const tls = await loadTls(tlsFiles(flags, credentials), io.signal);
    const client = createApiClient({
      credentials,
      timeoutMs: (flags.timeout ?? DEFAULT_TIMEOUT_SECONDS) * 1000,
      maxWaitMs: (flags.maxWait ?? DEFAULT_MAX_WAIT_SECONDS) * 1000,
      tls,
      // Traces quote the server's answers: made safe line by line, like every other output.
      debug: flags.debug ? (text) => output.debug(text) : undefined,
      onWait: (ms, notice, signal) =>
        countdown(io, ms, (left) => waitWords(notice, left), {
          reason: notice.reason,
          seconds: Math.max(1, Math.ceil(ms / 1000)),
          attempt: notice.attempt,
          of: notice.attempts,
          host: notice.host,
          action: notice.action,
        }, signal),
      signal: io.signal,
      onCacheProblem: (warning) => output.warn(warning),
      onActivity: (action) => spinner(io, activityLabel(action)),
    });
    clients.push(client);
    return createManagement(client, command);
  }

  return {
    io,
    output,
    globals,
    command,
    api: () => (api ??= resolveCredentials(io.env, globals().profile, io.signal).then(build)),
    apiFor: (credentials) => build(credentials),
    prompter: () => import('../io/prompter.js').then(({ createPrompter }) => createPrompter(io)),
    async close() {
      await Promise.all(clients.map((client) => client.close()));
    },
  };
}
