// Found by the fuzz suites (test/fuzz): a NUL character (U+0000) in a path, a query or a
// body reached PostgreSQL, which refuses it in text and JSON values, and the caller got a
// 500. Every surface now answers 400 saying where it is, on both databases, and nothing is
// written.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends } from '../helpers/backends.ts';
import { csrfOf, loggedIn, open, postForm } from '../helpers/pages.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { buildWorld, mint } from '../platform/fixtures.ts';

describe.each(backends)('a NUL character in a request on $name', ({ name, available }) => {
  let server: TestServer;
  beforeAll(async () => {
    if (available) server = await startTestServer(name);
  });
  afterAll(async () => server?.close());

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
