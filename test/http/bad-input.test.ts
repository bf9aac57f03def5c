// docs/rules.md#bad-input: bad input of any kind is a 4xx that says what to fix, never a 500,
// over one server per database.
//
// A NUL character (U+0000) in a path, a query or a body (found by the fuzz suites, test/fuzz)
// reached PostgreSQL, which refuses it in text and JSON values, and the caller got a 500. Every
// surface now answers 400 saying where it is, on both databases, and nothing is written.
//
// Even when no route ever sees the request: a request the API or the well-known documents have
// no route for can still fail before the 404 is chosen (its body is parsed first, or its method
// has no body rule): it gets the 404 any request to that address gets, in the API's envelope,
// and nothing is logged as a server failure. A request Node's HTTP parser cannot read never
// reaches a route; its answer still names what was wrong with it, so the developer of a
// hand-rolled client (or the operator of a proxy) can fix it. Neither depends on the storage
// backend: SQLite only.
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends } from '../helpers/backends.ts';
import { csrfOf, loggedIn, open, postForm } from '../helpers/pages.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { buildWorld, mint } from '../platform/fixtures.ts';

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

describe.each(backends)('bad input on $name', ({ name, available }) => {
  let server: TestServer;
  beforeAll(async () => {
    if (available) server = await startTestServer(name);
  });
  afterAll(async () => server?.close());

  describe('a NUL character in a request', () => {
    it.skipIf(!available)('in a page address: 400 page, not 500', async () => {
      const { browser } = await loggedIn(server);
      const csrf = csrfOf((await open(browser, '/settings/developer/oauth-clients/new')).body);
      const res = await postForm(browser, '/settings/developer/oauth-clients/%00/edit', { _csrf: csrf, name: 'x' });
      expect(res.status).toBe(400);
      expect(res.body).toContain('NUL character');
    });

    it.skipIf(!available)('in a form field: 400 page, and no client registered', async () => {
      const { browser } = await loggedIn(server);
      const csrf = csrfOf((await open(browser, '/settings/developer/oauth-clients/new')).body);
      const before = (await server.services.stores.clients.list({})).length;
      const res = await postForm(browser, '/settings/developer/oauth-clients', {
        _csrf: csrf,
        name: 'Nul\u0000App',
        homepage_url: 'https://app.example.com',
        kind: 'confidential',
        redirect_uris: 'https://app.example.com/callback',
        scopes: 'PROFILE_READ',
      });
      expect(res.status).toBe(400);
      expect(res.body).toContain('NUL character');
      expect((await server.services.stores.clients.list({})).length).toBe(before);
    });

    it.skipIf(!available)('in an API body, at any depth: 400 envelope naming the field', async () => {
      const w = await buildWorld(server);
      const token = await mint(server, w, w.owner, ['PROFILE_WRITE', 'SCHEDULE_WRITE']);
      const me = await server.api('PATCH', '/v2/me', token, { name: 'Ann\u0000' });
      expect(me.status).toBe(400);
      expect(me.body).toMatchObject({ status: 'error', error: { code: 'bad_request' } });
      expect(me.body.error.message).toContain('(name)');
      const schedule = await server.api('POST', '/v2/schedules', token, { name: 'Work', timeZone: 'UTC', availability: [{ days: ['Monday\u0000'], startTime: '09:00', endTime: '17:00' }] });
      expect(schedule.status).toBe(400);
      expect(schedule.body.error.message).toContain('availability.0.days.0');
    });

    it.skipIf(!available)('in an API path, before the access check looks the team up: 400 envelope', async () => {
      const w = await buildWorld(server);
      const token = await mint(server, w, w.owner, ['EVENT_TYPE_READ', 'TEAM_VERIFIED_RESOURCES_WRITE']);
      const res = await server.api('GET', '/v2/event-types/a%00b', token);
      expect(res.status).toBe(400);
      expect(res.body.status).toBe('error');
      const team = await server.api('POST', '/v2/teams/%00/verified-resources/emails/verification-code/request', token, { email: 'a@example.com' });
      expect(team.status).toBe(400);
      expect(team.body).toMatchObject({ status: 'error', error: { code: 'bad_request' } });
      expect(team.body.error.message).toContain('the address holds a NUL character');
    });

    it.skipIf(!available)('in a token request: 400 invalid_request (RFC 6749 §5.2)', async () => {
      const res = await server.token({ grant_type: 'refresh_token', refresh_token: 'x', client_id: 'abc\u0000' });
      expect(res.status).toBe(400);
      expect(res.body.error).toBe('invalid_request');
      expect(String(res.body.error_description)).toContain('NUL character');
    });
  });

  // What no route takes does not depend on the storage backend: SQLite only.
  if (name === 'sqlite') describe('requests no route takes', () => {
    describe('requests no API route takes', () => {
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

    describe('requests the HTTP parser cannot read', () => {
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
  });
});
