// What idm says on stderr besides the final error: warnings, retry waits and --debug traces. One
// rule (README, "--json on stderr"): with --json every line idm writes on stderr is one JSON
// object, {"warning": ...}, {"wait": ...} or {"debug": ...}, and a failure ends with {"error": ...}
// (written by main()). Without --json they are words for people. Every warning goes through warn().
import type { IO } from '../io/terminal.js';

export interface Warning {
  message: string;
  /** What to do about it. */
  hint?: string;
}

/** One notice: `{"<kind>": value}` on a line of its own with --json, else `text` as is. */
export function notice(io: IO, json: boolean, kind: 'warning' | 'wait' | 'debug', value: unknown, text: string): void {
  io.err(json ? `${JSON.stringify({ [kind]: value })}\n` : text);
}

export function warn(io: IO, json: boolean, warning: Warning): void {
  const label = io.colorStderr ? '\u001b[33mWarning:\u001b[39m' : 'Warning:';
  notice(io, json, 'warning', warning, `${label} ${warning.message}\n${warning.hint ? `${warning.hint}\n` : ''}`);
}
