// The rules of a provisioning mapping, without zod: the wizard checks each value as it is typed,
// the flags are checked before any request, and the zod schemas (./requests.ts) refine with the same
// functions, so that each rule is written once.
import { SYNC_GROUPS } from './constants.js';

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

/**
 * A provisioning request body that certainly passes the schema (requests.ts provisioningRequestSchema),
 * as the schema gives it back (attributes trimmed); undefined when it may not. The CLI checks a body
 * here first and loads the schemas (zod/mini, about 3 ms of a run) only for one this does not pass,
 * so that the schema still has the last word and words every problem. test/schemas/requests.test.ts
 * holds the two together.
 */
export function plainProvisioningBody(body: Record<string, unknown>): Record<string, unknown> | undefined {
  const { mapping, synchronize_automatically: automatically, synchronize_groups: groups, ...unknown } = body;
  if (Object.keys(unknown).length > 0) return undefined;
  if (automatically !== undefined && typeof automatically !== 'boolean') return undefined;
  if (groups !== undefined && !(SYNC_GROUPS as readonly unknown[]).includes(groups)) return undefined;
  let rows: Array<{ platform: string; idp: string }> | undefined;
  if (mapping !== undefined) {
    if (!Array.isArray(mapping) || mapping.length < 1 || mapping.length > MAPPING_ROWS_MAX) return undefined;
    rows = [];
    for (const row of mapping as unknown[]) {
      if (typeof row !== 'object' || row === null || Array.isArray(row) || Object.keys(row).length !== 2) return undefined;
      const { platform, idp } = row as Record<string, unknown>;
      if (typeof platform !== 'string' || typeof idp !== 'string') return undefined;
      if (mappingAttributeProblem(platform, 'platform') || mappingAttributeProblem(idp, 'identity-provider')) return undefined;
      if (rowMapping(rows, platform.trim()) >= 0) return undefined;
      rows.push({ platform: platform.trim(), idp: idp.trim() });
    }
  }
  // In the schema's order of fields, as it gives the body back.
  return {
    ...(rows === undefined ? {} : { mapping: rows }),
    ...(automatically === undefined ? {} : { synchronize_automatically: automatically }),
    ...(groups === undefined ? {} : { synchronize_groups: groups }),
  };
}
