// The body of a provisioning create or change, from flags: `platform=idp` rows and the shared
// schema's check (a mapping of at least one row, each platform attribute once), with problems named
// by the flag they came from.
import type { ProvisioningBody } from '../../api/management/index.js';
import { UsageError } from '../../core/errors.js';
import { jsonKind } from '../../core/text.js';
import type { IO } from '../../io/io.js';
import { parseJson, readFileOrStdin } from '../../io/input.js';

/** `platform=idp`, split at the first `=`. */
export function parseMappingFlag(value: string): { platform: string; idp: string } {
  const at = value.indexOf('=');
  if (at < 0) throw new UsageError(`--mapping "${value}" must be platform=idp, e.g. --mapping email=primaryEmail.`);
  return { platform: value.slice(0, at).trim(), idp: value.slice(at + 1).trim() };
}

/** --mapping-file: a JSON array of rows, from a file or stdin. */
export async function readMappingFile(path: string, io: IO): Promise<unknown[]> {
  const source = path === '-' ? '--mapping-file - (stdin)' : `--mapping-file ${path}`;
  const value = parseJson(source, await readFileOrStdin('--mapping-file', path, io, { hint: 'Pipe the JSON in, or give --mapping-file a path.' }));
  if (!Array.isArray(value)) throw new UsageError(`${source} must hold a JSON array of {"platform", "idp"} objects, not ${jsonKind(value)}.`);
  return value;
}

/** The body against the shared schema; `mappingSource` names where the mapping came from. */
export async function checkProvisioningBody(body: Record<string, unknown>, mappingSource: string): Promise<ProvisioningBody> {
  const { ProvisioningRequestSchema } = await import('../../schemas/requests.js');
  const parsed = ProvisioningRequestSchema.safeParse(body);
  if (parsed.success) return parsed.data;
  const problems = parsed.error.issues.map((issue) => {
    const [field, index, key] = issue.path;
    if (field === 'mapping' && typeof index === 'number') return `${mappingSource} entry ${index + 1}${key ? ` (${String(key)})` : ''}: ${issue.message}`;
    return `${field === 'mapping' ? mappingSource : String(field ?? 'body')}: ${issue.message}`;
  });
  throw new UsageError(`Invalid provisioning settings: ${problems.slice(0, 5).join('; ')}${problems.length > 5 ? `; and ${problems.length - 5} more` : ''}.`);
}
