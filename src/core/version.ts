// idm's version (set at build time by scripts/build.mjs and vitest.config.ts) and the User-Agent
// every request carries.
declare const IDM_VERSION: string;
export const VERSION = typeof IDM_VERSION === 'string' ? IDM_VERSION : '0.0.0-dev';
export const USER_AGENT = `idm/${VERSION}`;
