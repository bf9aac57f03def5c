// Conferencing apps and the OAuth-less calendar connections at Cal.com API v2's addresses
// (docs/integrating.md#conferencing-apps, docs/integrating.md#calendar-connections): a user's
// connections of category 'conferencing', their default, and, where the platform would send the
// user through a provider's OAuth, which Gatehouse does not run, the address of Gatehouse's
// connect page instead (walked through in test/web/connect-pages.test.ts). What only HTTP shows: the
// views, the platform's app slugs, the connect page's address, the request schemas and what a
// password never reaches. The rules (one connection per app, the default, whose connection) are
// test/services/platform/conferencing.test.ts's; the scopes of every route platform-access's.
import { describe, expect, it } from 'vitest';
import { backends } from '../helpers/backends.ts';
import type { TestServer } from '../helpers/server.ts';
import { mint, quickUser, type World, useWorld } from './fixtures.ts';

describe.each(backends)('conferencing apps and calendar credentials on $name', ({ name, available }) => {
  let server: TestServer;
  let w: World;
  useWorld(name, available, (started) => ({ server, w } = started));

  /** A user of their own, so no other test's connections show up. */
  async function someone(scopes = ['APPS_READ', 'APPS_WRITE']) {
    const user = await quickUser(server);
    return { user, token: await mint(server, w, user, scopes) };
  }

  it.skipIf(!available)('POST /v2/conferencing/google-meet/connect → 200 the credential (id, google_video, userId as numbers); listed by GET /v2/conferencing; twice → 409 conflict', async () => {
    const { user, token } = await someone();
    expect((await server.api('GET', '/v2/conferencing', token)).body).toEqual({ status: 'success', data: [] });
    const res = await server.api('POST', '/v2/conferencing/google-meet/connect', token);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ type: 'google_video', userId: Number(user.id), invalid: false, appSlug: 'google-meet', isDefault: false });
    expect(typeof res.body.data.id).toBe('number');
    const list = await server.api('GET', '/v2/conferencing', token);
    expect(list.body.data).toEqual([res.body.data]);
    const again = await server.api('POST', '/v2/conferencing/google-meet/connect', token);
    expect(again.status).toBe(409);
    expect(again.body.error).toEqual({ code: 'conflict', message: 'google-meet is already connected' });
  });

  it.skipIf(!available)('POST /v2/conferencing/:app/default → 200, GET /v2/conferencing/default answers its appSlug; none chosen → {}; disconnecting it leaves none', async () => {
    const { token } = await someone();
    expect((await server.api('GET', '/v2/conferencing/default', token)).body).toEqual({ status: 'success', data: {} });
    const notConnected = await server.api('POST', '/v2/conferencing/zoom/default', token);
    expect(notConnected.status).toBe(400);
    expect(notConnected.body.error.message).toMatch(/^app: zoom is not connected/);

    const meet = (await server.api('POST', '/v2/conferencing/google-meet/connect', token)).body.data;
    const set = await server.api('POST', '/v2/conferencing/google-meet/default', token);
    expect(set.status).toBe(200);
    expect(set.body.data).toEqual({ appSlug: 'google-meet', connection: { ...meet, isDefault: true } });
    const got = await server.api('GET', '/v2/conferencing/default', token);
    expect(got.body.data).toEqual({ appSlug: 'google-meet', connection: { ...meet, isDefault: true } });
    expect((await server.api('GET', '/v2/conferencing', token)).body.data).toEqual([{ ...meet, isDefault: true }]);

    const gone = await server.api('DELETE', '/v2/conferencing/google-meet/disconnect', token);
    expect(gone.status).toBe(200);
    expect(gone.body.data).toEqual({ id: meet.id, appSlug: 'google-meet', deleted: true });
    expect((await server.api('GET', '/v2/conferencing/default', token)).body.data).toEqual({});
    expect((await server.api('GET', '/v2/conferencing', token)).body.data).toEqual([]);
  });

  it.skipIf(!available)('zoom and msteams are recorded by POST …/connect (no OAuth is run), become the default and are disconnected by their platform slugs', async () => {
    const { user, token } = await someone();
    const zoom = (await server.api('POST', '/v2/conferencing/zoom/connect', token)).body.data;
    const teams = (await server.api('POST', '/v2/conferencing/msteams/connect', token)).body.data;
    expect(await server.db.selectFrom('connected_apps').select(['app', 'category']).where('user_id', '=', user.id).orderBy('id').execute()).toEqual([
      { app: 'zoom', category: 'conferencing' },
      { app: 'microsoft-teams', category: 'conferencing' },
    ]);
    const list = await server.api('GET', '/v2/conferencing', token);
    expect(list.body.data.map((a: { type: string; appSlug: string }) => [a.type, a.appSlug])).toEqual([['zoom_video', 'zoom'], ['office365_video', 'msteams']]);
    expect((await server.api('POST', '/v2/conferencing/msteams/default', token)).body.data.appSlug).toBe('msteams');
    expect((await server.api('POST', '/v2/conferencing/zoom/default', token)).body.data.connection.id).toBe(zoom.id);
    expect((await server.api('GET', '/v2/conferencing/default', token)).body.data.appSlug).toBe('zoom');
    expect((await server.api('DELETE', '/v2/conferencing/msteams/disconnect', token)).body.data).toEqual({ id: teams.id, appSlug: 'msteams', deleted: true });
  });

  it.skipIf(!available)('GET /v2/conferencing/:app/oauth/auth-url → 200 the address of the connect page (docs/rules.md#connect-pages); both return addresses are required; nothing is connected until the user confirms', async () => {
    const { token } = await someone();
    const res = await server.api('GET', '/v2/conferencing/zoom/oauth/auth-url?returnTo=https%3A%2F%2Fapp.example.com%2Fok&onErrorReturnTo=https%3A%2F%2Fapp.example.com%2Fno', token);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'success', data: { url: expect.stringMatching(new RegExp(`^${server.url}/settings/connect/gcr_[0-9A-Za-z]{49}$`)) } });
    const missing = await server.api('GET', '/v2/conferencing/msteams/oauth/auth-url?returnTo=https%3A%2F%2Fapp.example.com%2Fok', token);
    expect(missing.status).toBe(400);
    expect(missing.body.error.message).toMatch(/onErrorReturnTo/);
    expect((await server.api('GET', '/v2/conferencing', token)).body.data).toEqual([]);
  });

  it.skipIf(!available)('an unknown app, or an OAuth address for an app without OAuth → 400 naming app', async () => {
    const { token } = await someone();
    for (const [method, path] of [
      ['POST', '/v2/conferencing/skype/connect'],
      ['POST', '/v2/conferencing/skype/default'],
      ['DELETE', '/v2/conferencing/skype/disconnect'],
      ['GET', '/v2/conferencing/google-meet/oauth/auth-url?returnTo=a&onErrorReturnTo=b'],
    ] as const) {
      const res = await server.api(method, path, token);
      expect(res.status, path).toBe(400);
      expect(res.body.error.message, path).toMatch(/app/);
    }
  });

  it.skipIf(!available)('GET /v2/calendars/:calendar/connect → 200 the address of the connect page (docs/rules.md#connect-pages); isDryRun is required; apple has none; nothing is connected until the user confirms', async () => {
    const { token } = await someone();
    const res = await server.api('GET', '/v2/calendars/google/connect?isDryRun=false&redir=https%3A%2F%2Fapp.example.com%2Fdone', token);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'success', data: { authUrl: expect.stringMatching(new RegExp(`^${server.url}/settings/connect/gcr_[0-9A-Za-z]{49}$`)) } });
    expect((await server.api('GET', '/v2/calendars/office365/connect?isDryRun=true', token)).body.data.authUrl).toMatch(/\/settings\/connect\/gcr_/);
    const missing = await server.api('GET', '/v2/calendars/google/connect', token);
    expect(missing.status).toBe(400);
    expect(missing.body.error.message).toMatch(/isDryRun/);
    expect((await server.api('GET', '/v2/calendars/apple/connect?isDryRun=true', token)).status).toBe(400);
    expect((await server.api('GET', '/v2/calendars', token)).body.data.connections).toEqual([]);
  });

  it.skipIf(!available)('POST /v2/calendars/apple/credentials → 201 an Apple calendar of that account; the password is neither answered, stored nor logged', async () => {
    const { user, token } = await someone();
    const password = 'abcd-efgh-ijkl-mnop-secret';
    const res = await server.api('POST', '/v2/calendars/apple/credentials', token, { username: 'Ann@iCloud.example.com', password });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ app: 'apple-calendar', category: 'calendar', account: 'ann@icloud.example.com', readOnly: false });
    expect(JSON.stringify(res.body)).not.toContain(password);
    const calendars = await server.api('GET', '/v2/calendars', token);
    expect(calendars.body.data.connectedCalendars.map((c: { integration: { type: string } }) => c.integration.type)).toEqual(['apple_calendar']);
    const rows = await server.db.selectFrom('connected_apps').selectAll().where('user_id', '=', user.id).execute();
    expect(rows).toHaveLength(1);
    expect(JSON.stringify(rows)).not.toContain(password);
    expect(server.logs.join('\n')).not.toContain(password);
    const before = Number(await server.services.stores.ids.next('connected_apps'));
    const again = await server.api('POST', '/v2/calendars/apple/credentials', token, { username: 'ann@icloud.example.com', password });
    expect(again.status).toBe(409);
    expect(Number(await server.services.stores.ids.next('connected_apps'))).toBe(before + 1);
  });

  it.skipIf(!available)('POST /v2/calendars/:calendar/credentials without a password or username, blank, or for google → 400 naming the field', async () => {
    const { user, token } = await someone();
    const cases: Array<[string, unknown, RegExp]> = [
      ['apple', { username: 'ann@example.com' }, /password/],
      ['apple', { password: 'x' }, /username/],
      ['apple', { username: '   ', password: 'x' }, /^username: must not be blank/],
      ['google', { username: 'ann@example.com', password: 'x' }, /calendar|provider/],
    ];
    for (const [calendar, body, message] of cases) {
      const res = await server.api('POST', `/v2/calendars/${calendar}/credentials`, token, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.message).toMatch(message);
    }
    expect(await server.db.selectFrom('connected_apps').selectAll().where('user_id', '=', user.id).execute()).toEqual([]);
  });

});
