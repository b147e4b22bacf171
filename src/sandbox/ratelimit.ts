// A token bucket per tenant, with the real service's headers (wire-facts.md): X-RateLimit-Limit is
// the bucket size, X-RateLimit-Remaining the requests left, X-RateLimit-Reset the Unix time in
// seconds when a request will be allowed again (when the bucket is empty) or when it is full again.

export interface RateLimit {
  limit: number;
  refillPerSecond: number;
}

/** Generous enough that tests and benchmarks never meet it, but the headers are always real. */
export const DEFAULT_RATE_LIMIT: RateLimit = { limit: 10_000, refillPerSecond: 10_000 };

export interface BucketResult {
  allowed: boolean;
  headers: Record<string, string>;
  /** Seconds until the next request is allowed (for Retry-After); 0 when allowed. */
  retryAfter: number;
}

export class TokenBucket {
  private tokens: number;
  private last: number;

  constructor(private readonly config: RateLimit, now = Date.now()) {
    this.tokens = config.limit;
    this.last = now;
  }

  take(now = Date.now()): BucketResult {
    const { limit, refillPerSecond } = this.config;
    this.tokens = Math.min(limit, this.tokens + ((now - this.last) / 1000) * refillPerSecond);
    this.last = now;
    const allowed = this.tokens >= 1;
    if (allowed) this.tokens -= 1;
    const waitSeconds = this.tokens >= 1 ? (limit - this.tokens) / refillPerSecond : (1 - this.tokens) / refillPerSecond;
    const retryAfter = allowed ? 0 : Math.max(1, Math.ceil(waitSeconds));
    return {
      allowed,
      retryAfter,
      headers: {
        'X-RateLimit-Limit': String(limit),
        'X-RateLimit-Remaining': String(Math.floor(this.tokens)),
        'X-RateLimit-Reset': String(Math.ceil(now / 1000 + waitSeconds)),
      },
    };
  }
}
