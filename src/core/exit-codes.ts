// The exit-code contract. README.md and `idm --help` print this table; scripts branch on it.

export const ExitCode = {
  Ok: 0,
  Failure: 1,
  Usage: 2,
  DeliveryFailed: 3,
  Auth: 4,
  RateLimited: 5,
  DeliveryUnknown: 6,
  Hangup: 129,
  Interrupted: 130,
  Terminated: 143,
} as const;
export type ExitCodeValue = (typeof ExitCode)[keyof typeof ExitCode];

export const EXIT_CODE_TABLE: ReadonlyArray<readonly [ExitCodeValue, string]> = [
  [ExitCode.Ok, 'success'],
  [ExitCode.Failure, 'API error, network failure, bad answer from the server, or other failure'],
  [ExitCode.Usage, 'usage or validation error: nothing was changed (nothing sent, or only a read to check the value against)'],
  [ExitCode.DeliveryFailed, 'a test event was sent and its delivery failed (idm streams test)'],
  [ExitCode.Auth, 'authentication or authorization failure (no credentials, 401, 403, token endpoint refused)'],
  [ExitCode.RateLimited, 'rate limited, still after retries within --max-wait'],
  [ExitCode.DeliveryUnknown, 'a test event was sent with --wait and its outcome was still unknown when the wait ended'],
  [ExitCode.Hangup, 'the terminal hung up (SIGHUP)'],
  [ExitCode.Interrupted, 'interrupted (Ctrl-C, or Escape at a prompt), or cancelled by answering no at a confirmation (then nothing was sent)'],
  [ExitCode.Terminated, 'terminated (SIGTERM)'],
];
