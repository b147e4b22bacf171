// Identifiers in the real service's shapes (wire-facts.md): `est_` + 22, `evt_` + 22, `con_` + 16
// letters and digits.
import { randomBytes, randomUUID } from 'node:crypto';

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

export function randomAlphanumeric(length: number): string {
  const bytes = randomBytes(length);
  let out = '';
  // 256 % 62 leaves a slight bias, which does not matter for identifiers of a test server.
  for (const byte of bytes) out += ALPHABET[byte % ALPHABET.length];
  return out;
}

export const newStreamId = (): string => `est_${randomAlphanumeric(22)}`;
export const newEventId = (): string => `evt_${randomAlphanumeric(22)}`;
export const newConnectionId = (): string => `con_${randomAlphanumeric(16)}`;

/**
 * The partner event source the service names for a new event-bus stream, in the recorded form
 * (recorded-lifecycle.json: `cloud.partner/platform.com/<tenant>-<uuid>/platform.events`); the
 * sandbox's tenant is `sandbox`, as in its demo seed.
 */
export const newPartnerEventSource = (): string => `cloud.partner/platform.com/sandbox-${randomUUID()}/platform.events`;
