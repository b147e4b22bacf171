// `--state-dir`: the tenant kept on disk, so that the same clients, keys, CA and data are there after
// a restart. One file, DIR/state.json (0600, in a 0700 directory: it holds secrets and keys), written
// whole to a temporary file and renamed over the old one, so that it is never half written. Changes
// are coalesced (StateSaver): one write shortly after a change, whatever else changed meanwhile, and
// a last one at close; with 100,000 streams a write takes a few hundred milliseconds. DIR/state.lock (O_EXCL, the owner's pid and start time) keeps a second sandbox out of the same
// directory for as long as the first runs; a lock whose process is gone is taken over. A damaged
// state file is an error at start, never a silent reset.
import { createPrivateKey, createPublicKey, randomBytes, X509Certificate } from 'node:crypto';
import { closeSync, linkSync, openSync, readdirSync, renameSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { createSecureContext } from 'node:tls';
import { z } from 'zod';
import { foreignDirProblem, makeDirectories, removeMade, temporaryFileTarget, writeFileReplacing } from '../core/dirs.js';
import { fsProblem } from '../core/errors.js';
import { processAlive, processStartTime } from '../core/process.js';
import { MB, readFileCappedSync, readLockText, sizeText } from '../core/read.js';
import { describeIssues, EventEnvelopeSchema, EventStreamSchema, eventStreamProblem, ProvisioningConfigSchema, TestDeliverySchema } from '../schemas/index.js';
import type { DeliveryLogEntry } from './delivery.js';
import type { Connection } from './tenant.js';

export const STATE_FILE = 'state.json';
const LOCK_FILE = 'state.lock';
const VERSION = 1;

/**
 * The most of state.json the sandbox reads: a 100,000-stream tenant writes about 40 MB, the 1,000,000
 * streams `--streams` allows about 400 MB, and 512 MB is about the longest text JavaScript holds (what
 * was read whole before this limit failed above it). A larger file, or /dev/zero, is not read.
 */
export const STATE_LIMIT = 512 * MB;

export class SandboxStateError extends Error {
  override name = 'SandboxStateError';
  constructor(
    message: string,
    /** `damaged`: state.json cannot be used; `in_use`: another sandbox holds the directory; `unwritable`: a save failed. */
    readonly reason: 'damaged' | 'in_use' | 'unwritable' = 'damaged',
    /** The fix, when it is not the reason's usual one. */
    readonly hint?: string,
  ) {
    super(message);
  }
}

const PemSchema = z.strictObject({ cert: z.string().min(1), key: z.string().min(1) });

const SecretClientSchema = z.strictObject({
  name: z.string(),
  clientId: z.string().min(1),
  clientSecret: z.string().min(1),
  privateKeyPem: z.string().min(1),
  signingAlg: z.literal('RS256'),
  scopes: z.array(z.string()),
  publicKeys: z.array(z.string().min(1)).optional(),
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
  /** Written by earlier versions, read and dropped: the 30-minute rule counts from the configuration's time. */
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
  /** The plan's stream limit, when a seed or --max-streams set one. */
  maxStreams: z.number().int().positive().optional(),
  signingKey: z.strictObject({ pem: z.string().min(1), kid: z.string().min(1) }),
  clients: z.strictObject({ admin: SecretClientSchema, reader: SecretClientSchema, mtls: CertificateClientSchema.optional() }),
  ca: PemSchema.optional(),
  server: PemSchema.optional(),
  edgeKey: z.string().min(1).optional(),
  /** SavedStreamSchema, checked by streamProblem: the schema would take a quarter of a second for 100,000 streams. */
  streams: z.array(z.unknown()),
  connections: z.array(ConnectionSchema),
  deliveries: z.array(DeliverySchema),
});

/** The state as the tenant holds it (the schema checks the shape; the tenant's types are narrower). */
export type SavedState = Omit<z.infer<typeof StateSchema>, 'streams' | 'connections' | 'deliveries'> & {
  streams: Array<z.infer<typeof SavedStreamSchema>>;
  connections: Connection[];
  deliveries: DeliveryLogEntry[];
};

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** A saved stream: its record and the write-only secret of its webhook. */
export const SavedStreamSchema = z.strictObject({ record: EventStreamSchema, secret: z.string().optional() });

/**
 * What SavedStreamSchema refuses in a saved stream, checked by hand (eventStreamProblem for its
 * record): the sandbox wrote it with its schemas; this catches a file damaged or edited since.
 */
export function streamProblem(entry: unknown): string | undefined {
  if (!isObject(entry)) return 'is not a saved stream';
  const extra = Object.keys(entry).find((key) => key !== 'record' && key !== 'secret');
  if (extra !== undefined) return `${extra} is not a field of a saved stream`;
  if (entry.secret !== undefined && typeof entry.secret !== 'string') return 'secret must be a string';
  const problem = eventStreamProblem(entry.record);
  return problem === undefined ? undefined : `record${problem.startsWith('is ') ? ' ' : '.'}${problem}`;
}

/** The keys and certificates of a state, each parsed (and each certificate with its key), or the first that does not. */
function pemProblem(state: z.infer<typeof StateSchema>): string | undefined {
  const keys: Array<[string, string]> = [
    ['signingKey.pem', state.signingKey.pem],
    ['clients.admin.privateKeyPem', state.clients.admin.privateKeyPem],
    ['clients.reader.privateKeyPem', state.clients.reader.privateKeyPem],
  ];
  for (const [where, pem] of keys) {
    try {
      createPrivateKey(pem);
    } catch {
      return `${where} is not a PEM private key`;
    }
  }
  if (createPrivateKey(state.signingKey.pem).asymmetricKeyType !== 'rsa') return 'signingKey.pem is not an RSA key';
  for (const name of ['admin', 'reader'] as const) {
    for (const [index, pem] of (state.clients[name].publicKeys ?? []).entries()) {
      try {
        createPublicKey(pem);
      } catch {
        return `clients.${name}.publicKeys.${index} is not a PEM public key`;
      }
    }
  }
  const { mtls } = state.clients;
  const pairs: Array<[string, { cert: string; key: string } | undefined]> = [
    ['ca', state.ca],
    ['server', state.server],
    ['clients.mtls', mtls && { cert: mtls.certPem, key: mtls.keyPem }],
  ];
  for (const [where, pair] of pairs) {
    if (!pair) continue;
    try {
      new X509Certificate(pair.cert);
    } catch {
      return `${where} holds no PEM certificate`;
    }
    try {
      createSecureContext({ cert: pair.cert, key: pair.key });
    } catch {
      return `${where} holds no private key of its certificate`;
    }
  }
  return undefined;
}

/** The saved state of `dir`, undefined when there is none yet; a damaged one throws SandboxStateError. */
export function loadState(dir: string): SavedState | undefined {
  const file = join(dir, STATE_FILE);
  let bytes: Buffer | undefined;
  try {
    bytes = readFileCappedSync(file, STATE_LIMIT);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new SandboxStateError(`Cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? String(error)}.`);
  }
  const damaged = (problem: string) => new SandboxStateError(`The sandbox state ${file} is damaged: ${problem}.`);
  if (bytes === undefined) throw damaged(`it holds more than ${sizeText(STATE_LIMIT)}, the most the sandbox reads`);
  const text = bytes.toString('utf8');
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw damaged('it is not JSON');
  }
  if (!isObject(parsed)) throw damaged('it is not a JSON object');
  if (parsed.version === undefined) throw damaged('it has no version');
  if (parsed.version !== VERSION) throw new SandboxStateError(`The sandbox state ${file} has version ${JSON.stringify(parsed.version)}; this idm reads version ${VERSION}.`);
  const result = StateSchema.safeParse(parsed);
  if (!result.success) {
    const [first, ...others] = describeIssues(result.error).split('; ');
    throw damaged(`${first}${others.length > 0 ? ` (and ${others.length} more problems)` : ''}`);
  }
  const state = result.data;
  for (const [index, entry] of state.streams.entries()) {
    const problem = streamProblem(entry);
    if (problem) throw damaged(`streams.${index}: ${problem}`);
  }
  const problem = pemProblem(state);
  if (problem) throw damaged(problem);
  return state as SavedState;
}

/** Writes the state whole: a temporary file in the same directory, then renamed over the old one. */
export function saveState(dir: string, state: SavedState): void {
  const file = join(dir, STATE_FILE);
  try {
    // Never through a symlink: a new file (exclusive, no follow) renamed over state.json.
    writeFileReplacing(file, `${JSON.stringify(state)}\n`);
  } catch (error) {
    throw new SandboxStateError(`Cannot write ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}.`, 'unwritable');
  }
}

/** The least wait between a change and its write. */
const SAVE_DELAY_MS = 200;

/**
 * Coalesced saves of a running tenant (whose lock is held): changed() asks for a write, made once
 * after SAVE_DELAY_MS (or four times as long as the last write took, for a large tenant) with every
 * change of the meantime; close() writes what is still due, and after it nothing is written.
 */
export class StateSaver {
  private timer: NodeJS.Timeout | undefined;
  private due = false;
  private closed = false;
  private lastWriteMs = 0;

  constructor(
    private readonly dir: string,
    private readonly snapshot: () => SavedState,
    /** A write that failed while running (it is tried again at the next change, and at close). */
    private readonly onError: (error: Error) => void = () => undefined,
  ) {}

  changed(): void {
    if (this.closed) return;
    this.due = true;
    this.timer ??= setTimeout(() => {
      this.timer = undefined;
      try {
        this.write();
      } catch (error) {
        this.onError(error as Error);
      }
    }, Math.max(SAVE_DELAY_MS, 4 * this.lastWriteMs));
  }

  /** Writes what is due, and stops: a failure is thrown. */
  close(): void {
    this.closed = true;
    this.flush();
  }

  /** Writes at once (a new tenant, before its credentials are printed): a failure is thrown. */
  now(): void {
    this.due = true;
    this.flush();
  }

  private flush(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.write();
  }

  private write(): void {
    if (!this.due) return;
    const started = Date.now();
    saveState(this.dir, this.snapshot());
    this.due = false;
    this.lastWriteMs = Date.now() - started;
  }
}

/** The nonces of the state locks this process holds (two sandboxes of one process, as tests start them, are two holders). */
const heldHere = new Set<string>();

/**
 * The pid of the running sandbox a state.lock (`pid start nonce`) names, or undefined when its
 * holder is gone: its process has ended; its pid is now another process's (its start time differs,
 * where /proc tells); or it is this process's pid in a lock this process does not hold, left by an
 * earlier process that had the same pid (a container's restart, where the sandbox is pid 1 each time).
 */
function runningHolder(text: string): number | undefined {
  const [pidText = '', start, nonce] = text.trim().split(' ');
  if (!/^\d{1,10}$/.test(pidText)) return undefined;
  const pid = Number(pidText);
  if (!processAlive(pid)) return undefined;
  if (pid === process.pid) return nonce !== undefined && heldHere.has(nonce) ? pid : undefined;
  const started = processStartTime(pid);
  if (start !== undefined && start !== '-' && started !== undefined && started !== start) return undefined;
  return pid;
}

/**
 * Makes `dir` (0700) and takes its lock for this process; throws SandboxStateError when another
 * running sandbox holds it. Returns the release, and the directories it made: a start that fails
 * after removes them again (removeMade), so that it leaves no empty directory behind.
 */
export function lockStateDir(dir: string, step?: () => void): { release: () => void; made: string[] } {
  // A file, a read-only place, no room, or a place where no directory can be made (/proc): said in
  // words with the path, not an unexpected error.
  const unusable = (error: unknown) => {
    const code = (error as NodeJS.ErrnoException).code;
    const why = code === 'EEXIST' || code === 'ENOTDIR' ? 'a file is in the way of a directory' : (fsProblem(error) ?? 'it cannot be made there');
    return new SandboxStateError(`Cannot use ${dir} as the state directory: ${why}${code ? ` (${code})` : ''}.`, 'unwritable');
  };
  let made: string[];
  try {
    made = makeDirectories(dir, 0o700);
  } catch (error) {
    throw unusable(error);
  }
  const lock = join(dir, LOCK_FILE);
  try {
    // Secrets and keys are written there: a directory another user owns or can write into could
    // have them redirected (a symlink planted at admin.secret), so it is refused, as idm's own
    // settings directory is.
    const foreign = foreignDirProblem(dir);
    if (foreign) throw new SandboxStateError(`idm will not write the sandbox's secrets into ${dir}: ${foreign.problem}.`, 'unwritable', foreign.fix);
    const nonce = randomBytes(8).toString('hex');
    for (let attempt = 0; attempt < 3; attempt++) {
      try {
        const fd = openSync(lock, 'wx', 0o600);
        writeSync(fd, `${process.pid} ${processStartTime('self') ?? '-'} ${nonce}\n`);
        closeSync(fd);
        heldHere.add(nonce);
        removeLeftovers(dir);
        return {
          release: () => {
            heldHere.delete(nonce);
            rmSync(lock, { force: true });
          },
          made,
        };
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw unusable(error);
        const seen = readLock(lock);
        if (seen === undefined) continue; // removed meanwhile
        const pid = runningHolder(seen.text);
        if (pid !== undefined) throw new SandboxStateError(`Another sandbox (pid ${pid}) is using ${dir}.`, 'in_use');
        // Between its creation and its write, another start's lock is empty.
        if (seen.empty && seen.ageMs < TORN_LOCK_MS) throw new SandboxStateError(`Another sandbox is starting on ${dir}.`, 'in_use');
        step?.();
        takeOver(lock, seen, nonce); // left by a sandbox that is gone
      }
    }
    throw new SandboxStateError(`Cannot take the lock ${lock}.`);
  } catch (error) {
    removeMade(made);
    throw error;
  }
}

/**
 * The temporary files of writes that a sandbox killed during them left (core/dirs.ts writeFileReplacing
 * names them `<file>.tmp-<pid>-<unique>`: a whole state.json each, tens of megabytes for a large
 * tenant, or a secret): removed once the lock is taken, as no other sandbox writes there then.
 */
function removeLeftovers(dir: string): void {
  try {
    for (const name of readdirSync(dir)) if (temporaryFileTarget(name) !== undefined) rmSync(join(dir, name), { force: true });
  } catch {
    // left for the next start: they take room, and are never read
  }
}

/** An empty lock younger than this is another start's, between its creation and its write. */
const TORN_LOCK_MS = 2_000;

interface SeenLock {
  text: string;
  empty: boolean;
  ino: number;
  ageMs: number;
}

/**
 * The lock as read: one line of about 50 bytes (a longer file is no lock of a sandbox: text ''),
 * never through a symlink (core/read.ts readLockText: one there is no lock, judged by itself).
 */
function readLock(lock: string): SeenLock | undefined {
  const seen = readLockText(lock, 128);
  return seen && { text: seen.text, empty: seen.size === 0, ino: seen.ino, ageMs: Date.now() - seen.mtimeMs };
}

/**
 * Removes the stale lock `seen`, and only it: another start may have taken it over meanwhile and
 * written its own, which must stay. Moved aside (atomic), checked, and put back when it is not `seen`.
 */
function takeOver(lock: string, seen: SeenLock, nonce: string): void {
  const aside = `${lock}.stale-${nonce}`;
  try {
    renameSync(lock, aside);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return; // taken over by another start already
    throw error;
  }
  const moved = readLock(aside);
  if (moved && moved.ino === seen.ino && moved.text === seen.text) {
    rmSync(aside, { force: true });
    return;
  }
  try {
    linkSync(aside, lock);
    rmSync(aside, { force: true });
  } catch {
    // yet another lock is there now: the one moved stays aside, never deleted
  }
}

/** Webhook endpoints under a previous run's inbox (or refusing port) moved to this run's. */
export function rebase(url: string, moves: ReadonlyArray<readonly [from: string, to: string]>): string {
  for (const [from, to] of moves) if (url === from || url.startsWith(`${from}/`)) return to + url.slice(from.length);
  return url;
}
