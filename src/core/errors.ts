// idm's error classes. Every failure idm reports is one of these: a short message naming the cause,
// an optional hint naming the fix, and the exit code from the documented table (./exit-codes.ts).
// main() turns it into one or two lines on stderr (or one JSON object with --json); nothing else
// prints errors or exits.
import { ExitCode, type ExitCodeValue } from './exit-codes.js';

export interface IdmErrorOptions {
  exitCode?: ExitCodeValue;
  /** What the user can do about it: one short sentence. */
  hint?: string;
  /** HTTP status, when the failure is an answer from a server. */
  status?: number;
  /** Machine-readable code: the server's errorCode / error, or one of idm's own. */
  code?: string;
  /** Extra fields for the `--json` error object (for example `resetAt`). */
  details?: Record<string, unknown>;
  cause?: unknown;
}

export class IdmError extends Error {
  readonly exitCode: ExitCodeValue;
  hint: string | undefined;
  readonly status: number | undefined;
  readonly code: string | undefined;
  readonly details: Record<string, unknown>;

  constructor(message: string, options: IdmErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'IdmError';
    this.exitCode = options.exitCode ?? ExitCode.Failure;
    this.hint = options.hint;
    this.status = options.status;
    this.code = options.code;
    this.details = options.details ?? {};
  }

  toJSON(): { error: Record<string, unknown> } {
    return {
      error: {
        ...(this.status === undefined ? {} : { status: this.status }),
        ...(this.code === undefined ? {} : { code: this.code }),
        message: this.message,
        ...(this.hint === undefined ? {} : { hint: this.hint }),
        ...this.details,
        exitCode: this.exitCode,
      },
    };
  }
}

/** Bad or missing input, found before anything was sent. */
export class UsageError extends IdmError {
  constructor(message: string, hint?: string) {
    super(message, { exitCode: ExitCode.Usage, code: 'usage', hint });
    this.name = 'UsageError';
  }
}

/** A settings file or directory idm cannot use as it is (exit 2, or 4 for credentials). */
export class ConfigError extends IdmError {
  constructor(message: string, hint: string, options: { exitCode?: ExitCodeValue; code?: string; cause?: unknown } = {}) {
    super(message, { exitCode: options.exitCode ?? ExitCode.Usage, code: options.code ?? 'bad_config', hint, cause: options.cause });
    this.name = 'ConfigError';
  }
}

/** A no at a confirmation: nothing was done, and the exit code says so as for Ctrl-C (130). */
export class CancelledError extends IdmError {
  constructor(message = 'Cancelled: nothing was sent.', hint?: string) {
    super(message, { exitCode: ExitCode.Interrupted, code: 'cancelled', hint });
    this.name = 'CancelledError';
  }
}

export type StopSignal = 'SIGINT' | 'SIGTERM' | 'SIGHUP';
const SIGNAL_EXIT: Record<StopSignal, ExitCodeValue> = { SIGINT: ExitCode.Interrupted, SIGTERM: ExitCode.Terminated, SIGHUP: ExitCode.Hangup };

/** Ctrl-C at a prompt or during a request, or SIGTERM / SIGHUP: exit 130, 143 or 129. */
export class InterruptedError extends IdmError {
  readonly signal: StopSignal;
  /**
   * Set by the transport when the stop came while a request it had wholly sent was unanswered: a
   * POST or PATCH may then have taken effect (api/client.ts says how to check).
   */
  requestSent = false;
  constructor(signal: StopSignal = 'SIGINT') {
    super(signal === 'SIGINT' ? 'Interrupted.' : `Stopped by ${signal}.`, { exitCode: SIGNAL_EXIT[signal], code: 'interrupted' });
    this.name = 'InterruptedError';
    this.signal = signal;
  }
}

const FS_PROBLEMS: Record<string, string> = {
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  EROFS: 'the file system is read-only',
  ENOSPC: 'the disk is full',
  EDQUOT: 'the disk quota is used up',
  EFBIG: 'the file is too large',
  EIO: 'an input/output error',
  EISDIR: 'a directory is in the way',
  ENOTDIR: 'a file is in the way of a directory',
};

/** What a failed write's error code means, in words (a settings file, the output); undefined for others. */
export function fsProblem(error: unknown): string | undefined {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return code === undefined ? undefined : FS_PROBLEMS[code];
}

/** stdout refused a write (a full disk, a file too large): the output is incomplete, exit 1. */
export class OutputError extends IdmError {
  constructor(cause: unknown) {
    const code = (cause as NodeJS.ErrnoException | undefined)?.code;
    const problem = fsProblem(cause);
    super(`Could not write the output: ${problem ? `${problem} (${code})` : (code ?? 'the write failed')}; it is incomplete.`, {
      code: 'output_failed',
      hint: code === 'ENOSPC' || code === 'EDQUOT' ? 'Free some disk space, or send the output elsewhere, and run the command again.' : 'Send the output elsewhere and run the command again.',
      cause,
    });
    this.name = 'OutputError';
  }
}

/** Whoever read stdout went away (`idm streams list --all | head -1`): stop quietly, exit 0. */
export class StdoutClosedError extends IdmError {
  constructor() {
    super('stdout was closed.', { exitCode: ExitCode.Ok, code: 'stdout_closed' });
    this.name = 'StdoutClosedError';
  }
}

/** A failure answered by the management interface or the token endpoint. */
export class ApiError extends IdmError {
  /** The management interface's answer, when it was JSON (`idm api --json` prints it); never the token endpoint's. */
  readonly body: unknown;
  /** How many times the request was sent (more than 1 after retries). */
  readonly attempts: number;
  /**
   * The server's own sentence (its message or error_description, secrets masked, without its full
   * stop), when the answer had one: for a caller that quotes it in a sentence of its own.
   */
  readonly serverMessage: string | undefined;
  constructor(message: string, options: IdmErrorOptions & { body?: unknown; attempts?: number; serverMessage?: string }) {
    super(message, options);
    this.name = 'ApiError';
    this.body = options.body;
    this.attempts = options.attempts ?? 1;
    this.serverMessage = options.serverMessage;
  }
}

/** A failure before any answer arrived. `requestSent` false means the server cannot have seen it. */
export class NetworkError extends ApiError {
  readonly requestSent: boolean;
  /** What happened, in a few words ("the connection was reset"), for retry notices. */
  readonly what: string;
  /** The Retry-After of a proxy's answer to the CONNECT (429, 503...): when it asked to be tried again. */
  readonly retryAfter?: string;
  constructor(message: string, options: IdmErrorOptions & { requestSent: boolean; what: string; retryAfter?: string }) {
    super(message, options);
    this.name = 'NetworkError';
    this.requestSent = options.requestSent;
    this.what = options.what;
    if (options.retryAfter !== undefined) this.retryAfter = options.retryAfter;
  }
}

export class RateLimitError extends ApiError {
  /** When the limit resets, if the server said. */
  readonly resetAt: Date | undefined;
  constructor(message: string, options: IdmErrorOptions & { resetAt?: Date; attempts?: number; body?: unknown; serverMessage?: string }) {
    super(message, options);
    this.name = 'RateLimitError';
    this.resetAt = options.resetAt;
  }
}

/** Something worth a warning on stderr (a secret file readable by others), and what to do about it. */
export interface Warning {
  message: string;
  hint?: string;
}
