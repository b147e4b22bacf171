// What idm holds for a client, read from the token cache only (no request): whether a token is
// cached, until when, and its scopes. auth status and profiles list show it.
import type { Tenant } from '../config/domain.js';
import { LAST_DATE_MS } from '../core/time.js';
import { peekClaims } from './jwt.js';
import { isFresh, readCachedToken, tokenCacheFile } from './tokens.js';

export interface TokenState {
  /** `unknown`: a token given as is (IDM_ACCESS_TOKEN) whose expiry cannot be read (not a JWT, or no exp). */
  state: 'valid' | 'expired' | 'unknown' | 'none';
  /** A given token whose claims cannot be read at all (not a JWT): its scopes are unknown too. */
  unreadable?: boolean;
  expiresAt?: number;
  scopes: string[];
  /**
   * A cached token still before its expiry but past the margin before it: commands no longer use it,
   * the next one gets a new one (isFresh). Its state is `expired` (the state says whether idm uses
   * the token); people are told it is valid until its expiry and renewed by the next command.
   */
  renewed?: boolean;
}

/** An expiry beyond the latest time a Date can hold (a claim or cache of a hostile server) is shown as it. */
const representable = (ms: number) => Math.max(-LAST_DATE_MS, Math.min(LAST_DATE_MS, ms));

/** The state of an access token given as is (IDM_ACCESS_TOKEN): its own claims, when it has readable ones. */
export function givenTokenState(accessToken: string, now = Date.now()): TokenState {
  const claims = peekClaims(accessToken);
  const expiresAt = typeof claims?.exp === 'number' && !Number.isNaN(claims.exp) ? representable(claims.exp * 1000) : undefined;
  const scopes = typeof claims?.scope === 'string' ? claims.scope.split(' ').filter(Boolean) : [];
  return {
    state: expiresAt === undefined ? 'unknown' : expiresAt > now ? 'valid' : 'expired',
    ...(expiresAt === undefined ? {} : { expiresAt }),
    scopes,
    ...(claims === undefined ? { unreadable: true } : {}),
  };
}

/** The cached token of a client at a tenant. */
export function cachedTokenState(dir: string, tenant: Tenant, clientId: string, now = Date.now()): TokenState {
  const cached = readCachedToken(tokenCacheFile(dir, tenant, clientId), tenant, clientId);
  if (!cached) return { state: 'none', scopes: [] };
  const scopes = (cached.scope ?? String(peekClaims(cached.accessToken)?.scope ?? '')).split(' ').filter(Boolean);
  const valid = cached.expiresAt > now;
  const used = valid && isFresh(cached, now);
  return { state: used ? 'valid' : 'expired', expiresAt: representable(cached.expiresAt), scopes, ...(valid && !used ? { renewed: true } : {}) };
}

/** `42 s`, `3 h 12 min`, `2 days`: how far a time is from now, for people. */
export function inWords(ms: number): string {
  // Under a minute in seconds: a token of a short lifetime (a sandbox's --token-lifetime 60) is not "0 min" from its end.
  const seconds = Math.floor(Math.abs(ms) / 1000);
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  return hours < 48 ? `${hours} h ${minutes % 60} min` : `${Math.floor(hours / 24)} days`;
}
