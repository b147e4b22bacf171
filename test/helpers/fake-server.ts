// A scriptable HTTP server on 127.0.0.1 for client tests that need answers the sandbox does not give
// (truncated JSON, redirects, odd statuses). Records every request.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Seen {
  method: string;
  url: string;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

export type Handler = (request: Seen, response: ServerResponse) => void;

export async function fakeServer(handler: Handler): Promise<{ url: string; seen: Seen[]; close(): Promise<void> }> {
  const seen: Seen[] = [];
  const server = createServer((req: IncomingMessage, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (body += chunk));
    req.on('end', () => {
      const request = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body };
      seen.push(request);
      handler(request, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers });
  res.end(JSON.stringify(body));
}

/** A token endpoint answer whose access token is a JWT-looking string. */
export function tokenAnswer(n: number, extra: Record<string, unknown> = {}): Record<string, unknown> {
  const payload = Buffer.from(JSON.stringify({ scope: 'read:event_streams', n })).toString('base64url');
  return { access_token: `eyJhbGciOiJub25lIn0.${payload}.sig${n}`, token_type: 'Bearer', expires_in: 3600, scope: 'read:event_streams', ...extra };
}
