// The agent's side of Client ID Metadata Documents (docs/integrating.md#connect-an-ai-agent-mcp) for tests: a web server that
// publishes documents and counts reads, and the authorization request an agent sends.
import { createServer, type Server } from 'node:http';

/** The agent's own web server: publishes metadata documents and counts how often each is read. */
export async function startDocumentHost(address = '127.0.0.1') {
  const documents = new Map<string, { status?: number; headers?: Record<string, string>; body: unknown }>();
  const reads = new Map<string, number>();
  // Paths whose answers wait until this many requests for them have arrived, then go together.
  const barriers = new Map<string, { count: number; waiting: Array<() => void> }>();
  // Paths that are never answered.
  const silent = new Set<string>();
  const server: Server = createServer(async (req, res) => {
    const path = req.url ?? '/';
    reads.set(path, (reads.get(path) ?? 0) + 1);
    if (silent.has(path)) return;
    const barrier = barriers.get(path);
    if (barrier !== undefined) {
      await new Promise<void>((release) => {
        barrier.waiting.push(release);
        if (barrier.waiting.length >= barrier.count) for (const go of barrier.waiting) go();
      });
    }
    const doc = documents.get(path);
    if (doc === undefined) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(doc.status ?? 200, { 'content-type': 'application/json', ...doc.headers });
    res.end(typeof doc.body === 'string' ? doc.body : JSON.stringify(doc.body));
  });
  await new Promise<void>((resolve) => server.listen(0, address, resolve));
  const origin = `http://${address}:${(server.address() as { port: number }).port}`;
  return {
    origin,
    host: new URL(origin).host,
    /** Publishes a valid document at `path`; `overrides` change its fields. */
    publish(path: string, overrides: Record<string, unknown> = {}, headers: Record<string, string> = { 'cache-control': 'max-age=600' }) {
      const clientId = `${origin}${path}`;
      documents.set(path, { headers, body: { client_id: clientId, client_name: 'Doc Agent', redirect_uris: ['http://127.0.0.1:45123/callback'], token_endpoint_auth_method: 'none', client_uri: 'https://agent.example.com', ...overrides } });
      return clientId;
    },
    raw(path: string, doc: { status?: number; headers?: Record<string, string>; body: unknown }) {
      documents.set(path, doc);
      return `${origin}${path}`;
    },
    reads: (path: string) => reads.get(path) ?? 0,
    /** Holds the answers for `path` until `count` requests for it are waiting. */
    answerTogether: (path: string, count: number) => barriers.set(path, { count, waiting: [] }),
    /** Accepts requests for `path` and never answers them; returns the client id it names. */
    neverAnswer(path: string) {
      silent.add(path);
      return `${origin}${path}`;
    },
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

export type DocumentHost = Awaited<ReturnType<typeof startDocumentHost>>;

export function authorizeQuery(clientId: string, challenge: string, extra: Record<string, string> = {}) {
  return new URLSearchParams({ client_id: clientId, redirect_uri: 'http://127.0.0.1:45123/callback', response_type: 'code', scope: 'PROFILE_READ', state: 'st', code_challenge: challenge, ...extra });
}
