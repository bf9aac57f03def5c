// Outbound requests (docs/rules.md#outbound-urls, docs/rules.md#webhooks, docs/rules.md#client-metadata-documents): connected only to the
// addresses the SSRF guard checked, every one of them rather than only the first; an answer
// larger than the limit refused or cut; one deadline for the whole exchange.
import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fetchDocument } from '../../src/services/clients/metadata-fetch.ts';
import { outboundRequest, OutboundRequestError, pinnedLookup, type OutboundRequestOptions } from '../../src/services/outbound-request.ts';

describe('outbound requests', () => {
  let server: Server;
  let port: number;
  const trickles: NodeJS.Timeout[] = [];
  beforeAll(async () => {
    server = createServer((req, res) => {
      if (req.url === '/silent') return; // never answers
      if (req.url === '/trickle') {
        // A byte every 50 ms, forever: no pause is long, the whole answer never ends.
        res.writeHead(200, { 'content-type': 'text/plain' });
        const trickle = setInterval(() => res.write('.'), 50);
        trickles.push(trickle);
        res.on('close', () => clearInterval(trickle)); // the client gave up: stop writing to it
        return;
      }
      if (req.url === '/2k-then-silence') return void res.writeHead(200, { 'content-type': 'text/plain' }).write('x'.repeat(2048));
      if (req.url === '/2k') return void res.writeHead(200, { 'content-type': 'text/plain' }).end('x'.repeat(2048));
      if (req.url === '/declares-2k') return void res.writeHead(200, { 'content-type': 'text/plain', 'content-length': '2048' }).write('x');
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as { port: number }).port;
  });
  afterAll(async () => {
    for (const t of trickles) clearInterval(t);
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  // A name that never resolves (RFC 6761): reaching the server at all shows the pinned address was used.
  const at = (path: string) => new URL(`http://pinned.invalid:${port}${path}`);
  // 127.0.0.2 is loopback too, but nothing listens there: connecting to it is refused.
  const refusingThenListening = ['127.0.0.2', '127.0.0.1'];
  const get = (limits: Partial<OutboundRequestOptions> = {}): OutboundRequestOptions => ({ method: 'GET', timeoutMs: 5_000, maxBytes: 1024, beyondLimit: 'refuse', ...limits });
  const failure = (promise: Promise<unknown>) => promise.then(() => expect.fail('the request succeeded'), (error: unknown) => error as OutboundRequestError);

  it('connects to the checked addresses, whatever the name resolves to, and to the second when the first refuses', async () => {
    const answer = await outboundRequest({ url: at('/'), addresses: refusingThenListening }, get());
    expect(answer).toMatchObject({ status: 200, whole: true });
    expect(answer.body.toString()).toBe('{"ok":true}');
  });

  it('a metadata document is fetched from the second checked address when the first refuses the connection', async () => {
    const fetched = await fetchDocument(at('/agent.json'), refusingThenListening);
    expect(fetched.status).toBe(200);
    expect(fetched.body).toBe('{"ok":true}');
  });

  it('says the host is unreachable when every checked address refuses, even just after a request to the same host and port went through', async () => {
    // A kept-alive connection from the first request must not carry the second to 127.0.0.1.
    expect((await outboundRequest({ url: at('/'), addresses: ['127.0.0.1'] }, get())).status).toBe(200);
    const error = await failure(outboundRequest({ url: at('/'), addresses: ['127.0.0.2', '127.0.0.3'] }, get()));
    expect(error).toBeInstanceOf(OutboundRequestError);
    expect(error).toMatchObject({ reason: 'unreachable', code: 'ECONNREFUSED' });
  });

  it('the pinned lookup answers with every checked address, or those of the family asked for', () => {
    const lookup = pinnedLookup(['93.184.215.14', '2606:4700:4700::1111', '8.8.8.8']) as unknown as (h: string, o: object, cb: (...args: unknown[]) => void) => void;
    const answers: unknown[][] = [];
    const ask = (options: object) => lookup('example.com', options, (...args) => answers.push(args));
    ask({ all: true });
    ask({ all: true, family: 4 });
    ask({ all: true, family: 6 });
    ask({});
    ask({ family: 6 });
    expect(answers).toEqual([
      [null, [{ address: '93.184.215.14', family: 4 }, { address: '2606:4700:4700::1111', family: 6 }, { address: '8.8.8.8', family: 4 }]],
      [null, [{ address: '93.184.215.14', family: 4 }, { address: '8.8.8.8', family: 4 }]],
      [null, [{ address: '2606:4700:4700::1111', family: 6 }]],
      [null, '93.184.215.14', 4],
      [null, '2606:4700:4700::1111', 6],
    ]);
    const none: unknown[] = [];
    (pinnedLookup(['93.184.215.14']) as unknown as typeof lookup)('example.com', { family: 6 }, (...args) => none.push(...args));
    expect(none[0]).toMatchObject({ code: 'ENOTFOUND' });
  });

  it('refuses an answer larger than the limit, whether it says so up front or not', async () => {
    for (const path of ['/2k', '/declares-2k']) {
      const error = await failure(outboundRequest({ url: at(path), addresses: ['127.0.0.1'] }, get()));
      expect(error, path).toMatchObject({ reason: 'too_large' });
    }
  });

  it('cuts a longer answer at the limit without waiting for the rest', async () => {
    const answer = await outboundRequest({ url: at('/2k-then-silence'), addresses: ['127.0.0.1'] }, get({ beyondLimit: 'cut', timeoutMs: 10_000 }));
    expect(answer).toMatchObject({ status: 200, whole: false });
    expect(answer.body.toString()).toBe('x'.repeat(1024));
  });

  it('gives up on a host that never answers, and on one that trickles its answer past the deadline', async () => {
    for (const path of ['/silent', '/trickle']) {
      const started = Date.now();
      const error = await failure(outboundRequest({ url: at(path), addresses: ['127.0.0.1'] }, get({ timeoutMs: 300, maxBytes: 1024 * 1024 })));
      expect(error, path).toMatchObject({ reason: 'timeout' });
      expect(Date.now() - started, path).toBeLessThan(3_000);
    }
  });
});
