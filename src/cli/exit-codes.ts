// The exit-code contract. README.md and `idm --help` print this table; scripts branch on it.
import { paragraph } from './help.js';

export const ExitCode = {
  Ok: 0,
  Failure: 1,
  Usage: 2,
  DeliveryFailed: 3,
  Auth: 4,
  RateLimited: 5,
  Interrupted: 130,
} as const;
export type ExitCodeValue = (typeof ExitCode)[keyof typeof ExitCode];

export const EXIT_CODE_TABLE: ReadonlyArray<readonly [ExitCodeValue, string]> = [
  [ExitCode.Ok, 'success'],
  [ExitCode.Failure, 'API error, network failure, bad answer from the server, or other failure'],
  [ExitCode.Usage, 'usage or validation error: nothing was sent'],
  [ExitCode.DeliveryFailed, 'a test event was sent and its delivery failed (idm streams test)'],
  [ExitCode.Auth, 'authentication or authorization failure (no credentials, 401, 403, token endpoint refused)'],
  [ExitCode.RateLimited, 'rate limited, still after retries within --max-wait'],
  [ExitCode.Interrupted, 'interrupted (Ctrl-C), or cancelled by answering no at a confirmation (then nothing was sent)'],
];

export function exitCodeHelp(): string {
  // Meanings wrapped at the help width, under their own column.
  return ['Exit codes:', ...EXIT_CODE_TABLE.map(([code, meaning]) => `  ${String(code).padEnd(4)} ${paragraph(meaning, ' '.repeat(7)).trimStart()}`)].join('\n');
}
