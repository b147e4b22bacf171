// The HTTPS webhook inbox: a receiver on 127.0.0.1 with a certificate generated at start, so that a
// test delivery can succeed on a machine with no network. The sandbox trusts this certificate for its
// own deliveries only. Anything POSTed under /inbox is recorded; /inbox/status/<code> answers <code>
// (still recorded), to try a receiver that refuses.
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { issueCertificate } from './pki.js';
import { nestsDeeper } from '../core/json-depth.js';
import { headerChars, pushBounded } from './bounded.js';
import { answerPlainHttp, closeServer, flatHeaders, trackSockets, isJsonType, json, MAX_BODY_BYTES, MAX_BODY_DEPTH, readBody, requestUrl, writeReply } from './http.js';

/**
 * The largest body the inbox keeps. Above the tenant's own limit: a test event's `data` may take
 * nearly all of MAX_BODY_BYTES, its envelope adds the rest, and the event is delivered as
 * JSON.stringify writes it again, where a number may grow: `1e20,` (5 bytes) is written as 21 digits
 * and a comma (22), 4.4 times as long, the most any JSON text grows. So that what the sandbox
 * delivers here is always kept whole.
 */
export const INBOX_MAX_BODY_BYTES = 5 * MAX_BODY_BYTES;

export interface InboxRecord {
  method: string;
  path: string;
  headers: Record<string, string>;
  /** Parsed JSON when it was sent as JSON, else the text. */
  body: unknown;
  at: number;
}

export interface Inbox {
  /** e.g. https://127.0.0.1:43124/inbox */
  url: string;
  /** The certificate (PEM) to trust for deliveries to the inbox. */
  cert: string;
  records: InboxRecord[];
  close(): Promise<void>;
}

export async function startInbox(): Promise<Inbox> {
  const { cert, key } = await issueCertificate(undefined, 'server');
  const records: InboxRecord[] = [];
  const server: Server = trackSockets(createServer({ cert, key }, (req, res) => {
    void (async () => {
      const body = await readBody(req, INBOX_MAX_BODY_BYTES);
      const url = requestUrl(req.url, 'https://127.0.0.1');
      if (!url) {
        writeReply(res, json(400, { error: 'bad request', message: 'Invalid request URL' }));
        return;
      }
      if (url.pathname !== '/inbox' && !url.pathname.startsWith('/inbox/')) {
        writeReply(res, json(404, { error: 'not found', message: 'The inbox is at /inbox' }));
        return;
      }
      if (req.method === 'GET') {
        writeReply(res, json(200, records));
        return;
      }
      let parsed: unknown = body ?? '';
      // Kept as text when not JSON, or nested too deeply to be answered again (GET /sandbox/inbox would overflow).
      if (body !== undefined && isJsonType(req.headers['content-type'])) {
        try {
          const value: unknown = JSON.parse(body);
          if (!nestsDeeper(value, MAX_BODY_DEPTH)) parsed = value;
        } catch {
          // kept as text
        }
      }
      const record: InboxRecord = { method: req.method ?? 'POST', path: url.pathname + url.search, headers: flatHeaders(req.headersDistinct), body: parsed, at: Date.now() };
      // Bounded as the request log is: GET /sandbox/inbox must stay answerable.
      pushBounded(records, record, (body ?? '').length + record.path.length + 100 + headerChars(record.headers));
      const asked = /^\/inbox\/status\/([2-5]\d\d)(?:\/|$)/.exec(url.pathname);
      // A body too large to keep is refused (recorded without it), not taken as if received.
      const status = body === undefined ? 413 : asked ? Number(asked[1]) : 200;
      writeReply(res, json(status, { received: status < 300 }));
    })().catch(() => res.destroy());
  }));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  // `curl http://…` to the inbox: a 400 naming the https:// URL, where the connection was closed without a word.
  server.on('tlsClientError', (error: Error, socket: object) => answerPlainHttp(error, socket, `https://127.0.0.1:${port}`));
  return {
    url: `https://127.0.0.1:${port}/inbox`,
    cert,
    records,
    close: () => closeServer(server),
  };
}
