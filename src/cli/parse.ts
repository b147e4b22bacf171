// Flag-value parsers shared by the builders. Each throws commander's InvalidArgumentError, which
// main() reports as a usage error (exit 2) naming the flag.
import { InvalidArgumentError } from 'commander';
import { PROFILE_NAME } from '../config/paths.js';
import { ID_SHAPES, idProblem, type IdKind } from '../schemas/ids.js';

export function parseIntegerInRange(flag: string, min: number, max: number) {
  return (value: string): number => {
    if (!/^\d+$/.test(value.trim())) throw new InvalidArgumentError(`${flag} must be a whole number from ${min} to ${max}.`);
    const n = Number(value.trim());
    if (n < min || n > max) throw new InvalidArgumentError(`${flag} must be from ${min} to ${max}, not ${value.trim()}.`);
    return n;
  };
}

export function parsePositiveSeconds(flag: string) {
  return (value: string): number => {
    const n = Number(value);
    if (!/^\d+(\.\d+)?$/.test(value.trim()) || !Number.isFinite(n) || n <= 0 || n > 86_400) {
      throw new InvalidArgumentError(`${flag} must be a number of seconds greater than 0 (at most 86400).`);
    }
    return n;
  };
}

export function parseChoice<T extends string>(flag: string, choices: readonly T[]) {
  return (value: string): T => {
    if ((choices as readonly string[]).includes(value)) return value as T;
    throw new InvalidArgumentError(`${flag} must be one of: ${choices.join(', ')}.`);
  };
}

/** A file path: not empty. Whether it can be read is checked where it is used. */
export function parsePath(flag: string) {
  return (value: string): string => {
    if (value.trim() === '') throw new InvalidArgumentError(`${flag} must be the path of a file.`);
    return value;
  };
}

/** An id argument or flag of a documented shape (schemas/ids.ts): checked before anything is sent. */
export function parseId(kind: IdKind, flag?: string) {
  return (value: string): string => {
    const id = value.trim();
    const problem = idProblem(kind, id);
    if (problem) throw new InvalidArgumentError(`${flag ? `${flag} ` : ''}"${value}" is not a ${ID_SHAPES[kind].name}. ${problem}`);
    return id;
  };
}

/** --profile: profile names become file names (config/paths.ts PROFILE_NAME). */
export function parseProfileName(value: string): string {
  if (!PROFILE_NAME.test(value)) {
    throw new InvalidArgumentError(`--profile "${value}" is not a valid profile name: letters, digits, dot, dash and underscore, at most 64, starting with a letter or digit.`);
  }
  return value;
}
