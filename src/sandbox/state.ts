// `--state-dir`: the tenant kept on disk, so that the same clients, keys, CA and data are there after
// a restart. One file, DIR/state.json (0600, in a 0700 directory: it holds secrets and keys), written
// whole after every change to a temporary file and renamed over the old one, so that it is never
// half written. DIR/state.lock (O_EXCL, the owner's pid) keeps a second sandbox out of the same
// directory for as long as the first runs; a lock whose process is gone is taken over. A damaged
// state file is an error at start, never a silent reset.
import { closeSync, mkdirSync, openSync, readFileSync, renameSync, rmSync, unlinkSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { describeIssues, EventEnvelopeSchema, EventStreamSchema, ProvisioningConfigSchema, TestDeliverySchema, type EventStream } from '../schemas/index.js';
import type { DeliveryLogEntry } from './delivery.js';
import type { Connection } from './tenant.js';

export const STATE_FILE = 'state.json';
const LOCK_FILE = 'state.lock';
const VERSION = 1;

export class SandboxStateError extends Error {
  override name = 'SandboxStateError';
}

const PemSchema = z.strictObject({ cert: z.string().min(1), key: z.string().min(1) });

const SecretClientSchema = z.strictObject({
  name: z.string(),
  clientId: z.string().min(1),
  clientSecret: z.string().min(1),
  privateKeyPem: z.string().min(1),
  signingAlg: z.literal('RS256'),
  scopes: z.array(z.string()),
});

const CertificateClientSchema = z.strictObject({
  name: z.literal('mtls'),
  clientId: z.string().min(1),
  scopes: z.array(z.string()),
  certPem: z.string().min(1),
  keyPem: z.string().min(1),
  certificateFingerprints: z.array(z.string()),
});

const GroupSchema = z.looseObject({ id: z.string() });

const ConnectionSchema = z.strictObject({
  id: z.string().min(1),
  name: z.string(),
  strategy: z.string(),
  provisioning: ProvisioningConfigSchema.optional(),
  groups: z.array(GroupSchema),
  synchronizedGroups: z.array(GroupSchema),
  syncError: z.string().optional(),
  lastSyncRequestedAt: z.number().optional(),
});

const DeliverySchema = z.strictObject({
  record: TestDeliverySchema,
  destination: z.enum(['webhook', 'eventbus', 'action']),
  event: EventEnvelopeSchema,
});

const StateSchema = z.strictObject({
  version: z.literal(VERSION),
  port: z.number().int().min(1).max(65_535),
  /** Where the inbox and the refusing port were: webhook endpoints under them follow the new ones. */
  inboxUrl: z.string(),
  closedUrl: z.string(),
  tokenLifetime: z.number().int().positive(),
  signingKey: z.strictObject({ pem: z.string().min(1), kid: z.string().min(1) }),
  clients: z.strictObject({ admin: SecretClientSchema, reader: SecretClientSchema, mtls: CertificateClientSchema.optional() }),
  ca: PemSchema.optional(),
  server: PemSchema.optional(),
  edgeKey: z.string().min(1).optional(),
  streams: z.array(z.strictObject({ record: EventStreamSchema, secret: z.string().optional() })),
  connections: z.array(ConnectionSchema),
  deliveries: z.array(DeliverySchema),
});

/** The state as the tenant holds it (the schema checks the shape; the tenant's types are narrower). */
export type SavedState = Omit<z.infer<typeof StateSchema>, 'streams' | 'connections' | 'deliveries'> & {
  streams: Array<{ record: EventStream; secret?: string }>;
  connections: Connection[];
  deliveries: DeliveryLogEntry[];
};

/** The saved state of `dir`, undefined when there is none yet; a damaged one throws SandboxStateError. */
export function loadState(dir: string): SavedState | undefined {
  const file = join(dir, STATE_FILE);
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new SandboxStateError(`Cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? String(error)}.`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new SandboxStateError(`The sandbox state ${file} is damaged: it is not JSON.`);
  }
  const result = StateSchema.safeParse(parsed);
  if (!result.success) {
    const version = (parsed as { version?: unknown } | null)?.version;
    if (version !== VERSION) throw new SandboxStateError(`The sandbox state ${file} has version ${JSON.stringify(version)}; this idm reads version ${VERSION}.`);
    const [first, ...others] = describeIssues(result.error).split('; ');
    throw new SandboxStateError(`The sandbox state ${file} is damaged: ${first}${others.length > 0 ? ` (and ${others.length} more problems)` : ''}.`);
  }
  return result.data as SavedState;
}

/** Writes the state whole: a temporary file in the same directory, then renamed over the old one. */
export function saveState(dir: string, state: SavedState): void {
  const file = join(dir, STATE_FILE);
  const temporary = `${file}.${process.pid}.tmp`;
  try {
    writeFileSync(temporary, `${JSON.stringify(state)}\n`, { mode: 0o600, flag: 'w' });
    renameSync(temporary, file);
  } catch (error) {
    rmSync(temporary, { force: true });
    throw error;
  }
}

/** Whether a process with this pid is running (signal 0 only asks). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Makes `dir` (0700) and takes its lock for this process; throws SandboxStateError when another
 * running sandbox holds it. Returns the release.
 */
export function lockStateDir(dir: string): () => void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const lock = join(dir, LOCK_FILE);
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(lock, 'wx', 0o600);
      writeSync(fd, `${process.pid}\n`);
      closeSync(fd);
      return () => rmSync(lock, { force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const pid = Number.parseInt(readFileSync(lock, 'utf8'), 10);
      if (Number.isInteger(pid) && pid > 0 && alive(pid)) {
        throw new SandboxStateError(`Another sandbox (pid ${pid}) is using ${dir}.`);
      }
      unlinkSync(lock); // left by a sandbox that is gone
    }
  }
  throw new SandboxStateError(`Cannot take the lock ${lock}.`);
}

/** Webhook endpoints under a previous run's inbox (or refusing port) moved to this run's. */
export function rebase(url: string, moves: ReadonlyArray<readonly [from: string, to: string]>): string {
  for (const [from, to] of moves) if (url === from || url.startsWith(`${from}/`)) return to + url.slice(from.length);
  return url;
}
