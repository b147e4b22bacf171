// What a command's run function receives: the terminal, the parsed global flags, and services that
// are built on first use (and only then load their modules). Tests hand run functions their own Deps.
import type { ApiClient } from '../api/types.js';
import type { IO } from '../io/terminal.js';
import type { Prompter } from '../io/prompter.js';
import { createApiClient } from '../api/client.js';
import { createOutput, type Output } from '../output/index.js';

export interface GlobalOptions {
  json: boolean;
  profile?: string;
  /** false with --no-color. */
  color: boolean;
  /** false with --no-input. */
  input: boolean;
  debug: boolean;
  /** Seconds per request (--timeout, IDM_TIMEOUT). */
  timeout?: number;
  /** Seconds to wait in total for rate limits and retries (--max-wait, IDM_MAX_WAIT). */
  maxWait?: number;
  /** PEM file of a private certificate authority to trust as well (--ca-file, IDM_CA_FILE). */
  caFile?: string;
  /** Client certificate and its key for mutual TLS: paths (--client-cert/--client-key, IDM_CLIENT_CERT/IDM_CLIENT_KEY). */
  clientCert?: string;
  clientKey?: string;
}

export interface Deps {
  io: IO;
  globals(): GlobalOptions;
  output(): Output;
  /** The management client for the selected profile: credentials resolved, token cached. */
  api(): Promise<ApiClient>;
  prompter(): Promise<Prompter>;
  /** Set by a command that finishes without an error but not with 0 (a failed test delivery: 3). */
  exitCode?: number;
  /** Releases what was built (keep-alive connections). */
  close(): Promise<void>;
}

export function createDeps(io: IO, globals: () => GlobalOptions): Deps {
  let api: Promise<ApiClient> | undefined;
  let output: Output | undefined;
  return {
    io,
    globals,
    output: () => (output ??= createOutput(io, { json: globals().json })),
    api: () =>
      (api ??= createApiClient({ io, globals: globals() })),
    prompter: () => import('../io/prompter.js').then(({ createPrompter }) => createPrompter(io)),
    async close() {
      if (api) await (await api.catch(() => undefined))?.close();
    },
  };
}
