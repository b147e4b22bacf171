// Reading single-record answers tolerantly: the record must be a JSON object; every field in it is
// kept as received (unknown fields and values are shown, never a crash).
import { isPlainObject, jsonKind } from '../../core/text.js';
import type { ApiClient, Operation } from '../client.js';
import { isForbidden, isNotFound } from '../errors.js';

export type ApiRecord = Record<string, unknown>;

/** Sends `operation` and returns its answer, which must be a JSON object (`what` names it). */
export async function requestRecord(client: ApiClient, operation: Operation, what: string): Promise<ApiRecord> {
  const { status, body } = await client.request(operation);
  if (!isPlainObject(body)) throw client.badAnswer(operation, status, `${jsonKind(body)} instead of ${what}`);
  return body;
}

/** What `read` answers, or undefined when the service says it is not there (404); other failures are thrown. */
export async function unlessAbsent<T>(read: Promise<T>): Promise<T | undefined> {
  try {
    return await read;
  } catch (error) {
    if (isNotFound(error)) return undefined;
    throw error;
  }
}

/**
 * What `read` answers, or undefined when the client may not read it (403): for a read a command goes
 * on without (sent with forbiddenIsAnswer, so that the 403 keeps the cached token). Other failures are
 * thrown, and so is a 403 for which `thrownAnyway` holds (provisioning's tenant without the feature).
 */
export async function unlessForbidden<T>(read: Promise<T>, thrownAnyway: (error: unknown) => boolean = () => false): Promise<T | undefined> {
  try {
    return await read;
  } catch (error) {
    if (isForbidden(error) && !thrownAnyway(error)) return undefined;
    throw error;
  }
}
