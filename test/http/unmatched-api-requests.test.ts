// docs/rules.md#bad-input: bad input of any kind is a 4xx that says what to fix, never a 500. A request the
// API or the well-known documents have no route for can still fail before the 404 is chosen
// (its body is parsed first, or its method has no body rule): it gets the 404 any request to
// that address gets, in the API's envelope, and nothing is logged as a server failure.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends } from '../helpers/backends.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';

describe.each(backends.filter((b) => b.name === 'sqlite'))('requests no API route takes, on $name', ({ name, available }) => {
  let server: TestServer;
  beforeAll(async () => {
    if (available) server = await startTestServer(name);
  });
  afterAll(async () => server?.close());

  const json = { 'content-type': 'application/json' };
  const cases: Array<[string, string, string, Record<string, string>, string | undefined]> = [
    ['broken JSON to a method /v2/me does not take', 'PUT', '/v2/me', json, '{'],
    ['broken JSON to an unknown path', 'POST', '/v2/nope', json, '{"a":'],
    ['a __proto__ key to an unknown path', 'POST', '/v2/nope', json, '{"__proto__":{"a":1}}'],
    ['a JSON body over the limit to an unknown path', 'POST', '/v2/nope', json, JSON.stringify({ a: 'x'.repeat(1100 * 1024) })],
    ['a form body over the limit to a well-known document', 'DELETE', '/.well-known/oauth-authorization-server', { 'content-type': 'application/x-www-form-urlencoded' }, `a=${'x'.repeat(70 * 1024)}`],
    ['the QUERY method without a content type', 'QUERY', '/v2/me', {}, undefined],
  ];

  it.skipIf(!available).each(cases)('%s: the 404 of its address in the envelope, no server failure logged', async (_what, method, path, headers, body) => {
    const before = server.logs.length;
    const res = await fetch(`${server.url}${path}`, { method, headers, body });
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    const answer = (await res.json()) as { status: string; error: { code: string; message: string } };
    expect(answer).toEqual({ status: 'error', timestamp: expect.any(String), path: expect.any(String), error: { code: 'not_found', message: `no endpoint ${method} ${path}` } });
    expect(server.logs.slice(before).filter((line) => line.includes('"level":50'))).toEqual([]);
  });
  it.skipIf(!available)('an OPTIONS with broken JSON reaches the cross-origin catch-all, which reads bodies: 400 saying so, in the envelope', async () => {
    const before = server.logs.length;
    const res = await fetch(`${server.url}/v2/me`, { method: 'OPTIONS', headers: json, body: '{' });
    expect(res.status).toBe(400);
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
    expect(await res.json()).toEqual({ status: 'error', timestamp: expect.any(String), path: expect.any(String), error: { code: 'bad_request', message: expect.stringMatching(/^the request body is not valid JSON/) } });
    expect(server.logs.slice(before).filter((line) => line.includes('"level":50'))).toEqual([]);
  });
});
