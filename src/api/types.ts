// The management client's contract, shared by every command. The implementation (node:http, token
// provider, retries, error mapping) is in ./client.ts.
import { IdmError, type IdmErrorOptions } from '../cli/errors.js';

export type HttpMethod = 'GET' | 'POST' | 'PATCH' | 'DELETE';

export interface RequestOptions {
  method: HttpMethod;
  /** Path below the management base URL (`https://<domain>/api/v2`), e.g. `/event-streams`. */
  path: string;
  query?: Record<string, string | number | undefined>;
  body?: unknown;
  /** What the request does, as a verb phrase for messages: "list event streams". */
  action?: string;
  /** The scope the operation needs (src/schemas/constants.ts SCOPES), named when the answer is 403. */
  scope?: string;
  /** The command's own advice for particular statuses, e.g. `{ 400: 'Check --from ...' }`. */
  hints?: Partial<Record<number, string>>;
}

export interface ApiResponse<T> {
  status: number;
  /** Header names in lower case. */
  headers: Record<string, string>;
  body: T;
}

export interface ApiClient {
  /** The tenant's management base URL, e.g. `https://tenant.example.com/api/v2`. */
  readonly baseUrl: string;
  request<T = unknown>(options: RequestOptions): Promise<ApiResponse<T>>;
  close(): Promise<void>;
}

/** A failure answered by the management interface or the token endpoint. */
export class ApiError extends IdmError {
  readonly body: unknown;
  /** How many times the request was sent (more than 1 after retries: see src/api/retry.ts). */
  readonly attempts: number;
  constructor(message: string, options: IdmErrorOptions & { body?: unknown; attempts?: number }) {
    super(message, options);
    this.name = 'ApiError';
    this.body = options.body;
    this.attempts = options.attempts ?? 1;
  }
}
