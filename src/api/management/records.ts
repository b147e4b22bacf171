// Reading single-record answers tolerantly: the record must be a JSON object; every field in it is
// kept as received (unknown fields and values are shown, never a crash).
import { isPlainObject, jsonKind } from '../../core/text.js';
import type { ApiClient, Operation } from '../client.js';

export type ApiRecord = Record<string, unknown>;

/** Sends `operation` and returns its answer, which must be a JSON object (`what` names it). */
export async function requestRecord(client: ApiClient, operation: Operation, what: string): Promise<ApiRecord> {
  const { status, body } = await client.request(operation);
  if (!isPlainObject(body)) throw client.badAnswer(operation, status, `${jsonKind(body)} instead of ${what}`);
  return body;
}
