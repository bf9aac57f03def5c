// docs/rules.md#bad-input: bad input of any kind is a 4xx that says what to fix. A request Node's HTTP parser
// cannot read never reaches a route; its answer still names what was wrong with it, so the
// developer of a hand-rolled client (or the operator of a proxy) can fix it.
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends } from '../helpers/backends.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';

/** Everything the server wrote back before it closed the connection. */
function sendRaw(url: string, request: string): Promise<string> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const socket = connect(Number(port), hostname, () => socket.end(Buffer.from(request, 'latin1')));
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('close', () => resolve(Buffer.concat(chunks).toString('utf8')));
  });
}

describe.each(backends.filter((b) => b.name === 'sqlite'))('requests the HTTP parser cannot read, on $name', ({ name, available }) => {
  let server: TestServer;
  beforeAll(async () => {
    if (available) server = await startTestServer(name);
  });
  afterAll(async () => server?.close());

  it.skipIf(!available).each([
    ['two Content-Length headers', 'POST /v2/auth/oauth2/token HTTP/1.1\r\nHost: a\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\nab', /Duplicate Content-Length/],
    ['a space before a header colon', 'GET /v2/me HTTP/1.1\r\nHost : a\r\n\r\n', /Invalid header token/],
    ['a method in lower case', 'get /v2/me HTTP/1.1\r\nHost: a\r\n\r\n', /Invalid method/],
  ])('%s: 400, in the API envelope, saying what the parser refused', async (_what, request, reason) => {
    const answer = await sendRaw(server.url, request);
    expect(answer).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
    expect(answer).toMatch(/\r\nContent-Type: application\/json; charset=utf-8\r\n/i);
    const body = JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4)) as { status: string; error: { code: string; message: string } };
    expect(body.status).toBe('error');
    expect(body.error.code).toBe('bad_request');
    expect(body.error.message).toMatch(/^the HTTP request could not be read: /);
    expect(body.error.message).toMatch(reason);
  });
});
