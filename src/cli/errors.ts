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

/**
 * Every failure idm reports is one of these: a short message naming the cause, an optional hint
 * naming the fix, and the exit code from the documented table. main() turns it into one or two lines
 * on stderr (or one JSON object with --json); nothing else prints errors or exits.
 */
export class IdmError extends Error {
  readonly exitCode: ExitCodeValue;
  readonly hint: string | undefined;
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

/** A no at a confirmation: nothing was done, and the exit code says so as for Ctrl-C (130). */
export class CancelledError extends IdmError {
  constructor(message = 'Cancelled: nothing was sent.', hint?: string) {
    super(message, { exitCode: ExitCode.Interrupted, code: 'cancelled', hint });
    this.name = 'CancelledError';
  }
}

/** Ctrl-C at a prompt or during a request. */
export class InterruptedError extends IdmError {
  constructor() {
    super('Interrupted.', { exitCode: ExitCode.Interrupted, code: 'interrupted' });
    this.name = 'InterruptedError';
  }
}
