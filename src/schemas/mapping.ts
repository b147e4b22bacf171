// The rules of a provisioning mapping, without zod: the wizard checks each value as it is typed,
// the flags are checked before any request, and the zod schemas (./index.ts) refine with the same
// functions, so that each rule is written once.

/** Attribute names are short identifiers on both sides; anything longer is a paste gone wrong. */
export const MAPPING_ATTRIBUTE_MAX = 256;
/** A strategy's default has about fifty rows; a thousand is a paste gone wrong. */
export const MAPPING_ROWS_MAX = 1000;

// Control, format (zero-width, bidi) and separator characters: an attribute `e\u200bmail` would look
// like `email` and pass the each-platform-attribute-once rule. Made on first use (about 0.1 ms).
let unsafe: RegExp | undefined;

/** Why `value` cannot be one side of a mapping row (`side` names it), or undefined. */
export function mappingAttributeProblem(value: string, side: 'platform' | 'identity-provider'): string | undefined {
  const name = `the ${side} attribute`;
  if (value.trim() === '') return `${name} must not be empty`;
  if (value.trim().length > MAPPING_ATTRIBUTE_MAX) return `${name} is longer than ${MAPPING_ATTRIBUTE_MAX} characters`;
  if ((unsafe ??= /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}]/u).test(value)) return `${name} holds control or invisible characters`;
  return undefined;
}

/** Each platform attribute is mapped once: the row (other than `except`) that maps `platform` already, or -1. */
export function rowMapping(rows: ReadonlyArray<{ platform: string }>, platform: string, except = -1): number {
  return rows.findIndex((row, index) => index !== except && row.platform === platform);
}
