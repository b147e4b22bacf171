// Types of ./loopback-guard.mjs (plain JavaScript, so that child processes load it as it is).
/** What this process was refused: `host:port`. */
export declare const blocked: string[];
