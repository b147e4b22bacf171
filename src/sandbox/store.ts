// The tenant's event streams, in creation order. Webhook secrets live beside each record, never in
// it: a record is exactly what the interface returns.
import type { EventStream } from '../schemas/index.js';
import type { z } from 'zod';
import type { DestinationInputSchema } from '../schemas/index.js';

export type DestinationInput = z.infer<typeof DestinationInputSchema>;
export type Destination = EventStream['destination'];

export interface StoredStream {
  /** Position in creation order; cursors point at it, so deletions never skip or repeat a stream. */
  seq: number;
  record: EventStream;
  /** The webhook's password, token or header value. */
  secret?: string;
}

/** Splits a written destination into the record's part and the write-only secret. */
export function splitSecret(input: DestinationInput): { destination: Destination; secret?: string } {
  if (input.type !== 'webhook') return { destination: input };
  const { webhook_endpoint, webhook_authorization: auth } = input.configuration;
  switch (auth.method) {
    case 'basic':
      return {
        destination: { type: 'webhook', configuration: { webhook_endpoint, webhook_authorization: { method: 'basic', username: auth.username } } },
        secret: auth.password,
      };
    case 'bearer':
      return {
        destination: { type: 'webhook', configuration: { webhook_endpoint, webhook_authorization: { method: 'bearer' } } },
        secret: auth.token,
      };
    case 'custom_header':
      return {
        destination: {
          type: 'webhook',
          configuration: { webhook_endpoint, webhook_authorization: { method: 'custom_header', header_key: auth.header_key } },
        },
        secret: auth.header_value,
      };
  }
}

export class StreamStore {
  private readonly byId = new Map<string, StoredStream>();
  /** Ascending by seq. */
  private readonly ordered: StoredStream[] = [];
  private nextSeq = 1;

  get size(): number {
    return this.byId.size;
  }

  has(id: string): boolean {
    return this.byId.has(id);
  }

  get(id: string): StoredStream | undefined {
    return this.byId.get(id);
  }

  add(record: EventStream, secret?: string): StoredStream {
    if (this.byId.has(record.id)) throw new Error(`duplicate stream id ${record.id}`);
    const stored: StoredStream = { seq: this.nextSeq++, record, ...(secret === undefined ? {} : { secret }) };
    this.byId.set(record.id, stored);
    this.ordered.push(stored);
    return stored;
  }

  /** Whether another stream than `exceptId` has this name (names are unique on the service). */
  nameInUse(name: string, exceptId?: string): boolean {
    return this.ordered.some((stored) => stored.record.name === name && stored.record.id !== exceptId);
  }

  delete(id: string): boolean {
    const stored = this.byId.get(id);
    if (!stored) return false;
    this.byId.delete(id);
    this.ordered.splice(this.firstAfter(stored.seq - 1), 1);
    return true;
  }

  /** Up to `take` streams created after `afterSeq`, and whether more follow. */
  page(afterSeq: number, take: number): { items: StoredStream[]; more: boolean } {
    const start = this.firstAfter(afterSeq);
    const items = this.ordered.slice(start, start + take);
    return { items, more: start + take < this.ordered.length };
  }

  all(): StoredStream[] {
    return [...this.ordered];
  }

  /** Index of the first stream whose seq is greater than `seq` (binary search). */
  private firstAfter(seq: number): number {
    let low = 0;
    let high = this.ordered.length;
    while (low < high) {
      const mid = (low + high) >>> 1;
      if (this.ordered[mid]!.seq <= seq) low = mid + 1;
      else high = mid;
    }
    return low;
  }
}

/** Cursors are opaque to clients: base64url of a version tag and the last seq of the page. */
export function encodeCursor(seq: number): string {
  return Buffer.from(`c1:${seq}`).toString('base64url');
}

export function decodeCursor(cursor: string): number | undefined {
  if (!/^[A-Za-z0-9_-]+$/.test(cursor)) return undefined;
  const match = /^c1:(\d{1,15})$/.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
  // Only the exact string this server handed out: base64 decoding forgives stray characters.
  return match && encodeCursor(Number(match[1])) === cursor ? Number(match[1]) : undefined;
}
