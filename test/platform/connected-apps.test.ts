// A user's connected apps at Cal.com API v2's addresses, through real HTTP on both databases: what
// only HTTP shows — the platform's shapes and requests, its schemas' refusals.
//
// Calendars (docs/integrating.md#calendar-connections): Cal.com API v2's own calendar requests, as its OpenAPI description writes them: busy times by
// dateFrom/dateTo in a timeZone (with the calendar's credentialId and externalId, which
// Gatehouse reads and ignores: busy times come from its bookings), the ICS feed check with no
// parameter, and a disconnect naming the credential by a number. Gatehouse's own requests
// (start/end instants, a url to check) keep working. And the user's calendar choices
// (docs/integrating.md#calendars): POST/DELETE /v2/selected-calendars and PUT
// /v2/destination-calendars in the platform's shapes, shown by GET /v2/calendars. The rules
// (periods, feeds, whose calendar, what may be chosen) are test/services/platform/connected-apps.test.ts's;
// the scopes of every route platform-access's.
//
// Conferencing apps and the OAuth-less calendar connections (docs/integrating.md#conferencing-apps):
// a user's connections of category 'conferencing', their default, and, where the platform would
// send the user through a provider's OAuth, which Gatehouse does not run, the address of
// Gatehouse's connect page instead (walked through in test/web/connect-pages.test.ts). What only
// HTTP shows: the views, the platform's app slugs, the connect page's address, the request
// schemas and what a password never reaches. The rules (one connection per app, the default,
// whose connection) are test/services/platform/conferencing.test.ts's.
import { describe, expect, it } from 'vitest';
import { backends } from '../helpers/backends.ts';
import type { TestServer } from '../helpers/server.ts';
import { fixtures, mint, quickUser, type World, useWorld } from './fixtures.ts';

const DAY = 86_400_000;

describe.each(backends)('connected apps: calendars and conferencing on $name', ({ name, available }) => {
  let server: TestServer;
  let w: World;
  let f: ReturnType<typeof fixtures>;
  useWorld(name, available, (started) => ({ server, w, f } = started), { OUTBOUND_ALLOW_PRIVATE: '0' });

  /** A user of their own, so no other test's bookings, feeds or connections show up. */
  async function someone() {
    const user = await quickUser(server);
    return { user, token: await mint(server, w, user, ['APPS_READ', 'APPS_WRITE']) };
  }

  const listed = async (token: string) => {
    const res = await server.api('GET', '/v2/calendars', token);
    expect(res.status).toBe(200);
    return res.body.data as { connectedCalendars: Array<{ credentialId: number; calendars: Array<{ isSelected: boolean }> }>; destinationCalendar?: { id: number; externalId: string; credentialId: number } };
  };
  const selectedOf = async (token: string) =>
    Object.fromEntries((await listed(token)).connectedCalendars.map((c) => [String(c.credentialId), c.calendars[0]!.isSelected]));

  it.skipIf(!available)('GET /v2/calendars/busy-times?dateFrom&dateTo&timeZone&credentialId&externalId → 200, the bookings of those whole local days, and none outside them', async () => {
    const { user, token } = await someone();
    // Madrid is UTC+1 in winter: the local day 2040-01-10 runs from 2040-01-09T23:00Z to 2040-01-10T23:00Z.
    const inside = await f.booking({ hostId: user.id, start: Date.parse('2040-01-09T23:00:00Z') });
    const after = await f.booking({ hostId: user.id, start: Date.parse('2040-01-10T23:00:00Z') });
    const res = await server.api('GET', '/v2/calendars/busy-times?timeZone=Europe%2FMadrid&dateFrom=2040-01-10&dateTo=2040-01-10&credentialId=135&externalId=someone%40example.com', token);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual([{ start: '2040-01-09T23:00:00.000Z', end: '2040-01-09T23:30:00.000Z', source: 'booking', bookingUid: inside.uid }]);
    const twoDays = await server.api('GET', '/v2/calendars/busy-times?loggedInUsersTz=Europe%2FMadrid&dateFrom=2040-01-10&dateTo=2040-01-11', token);
    expect(twoDays.body.data.map((b: { bookingUid: string }) => b.bookingUid)).toEqual([inside.uid, after.uid]);
  });

  it.skipIf(!available)('GET /v2/calendars/busy-times with only the platform’s required credentialId and externalId → 200, today in UTC; Gatehouse’s start/end still work', async () => {
    const { user, token } = await someone();
    const today = Date.parse(new Date(server.clock()).toISOString().slice(0, 10));
    const tomorrow = await f.booking({ hostId: user.id, start: today + DAY + 3600_000 });
    const res = await server.api('GET', '/v2/calendars/busy-times?credentialId=1&externalId=primary', token);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual([]);
    const own = await server.api('GET', `/v2/calendars/busy-times?start=${new Date(today).toISOString()}&end=${new Date(today + 2 * DAY).toISOString()}`, token);
    expect(own.status).toBe(200);
    expect(own.body.data.map((b: { bookingUid: string }) => b.bookingUid)).toEqual([tomorrow.uid]);
  });

  it.skipIf(!available)("GET /v2/calendars/busy-times with a bad timeZone or a dateFrom no date → 400 naming the field (a reversed, too long or half period: the service's test)", async () => {
    const { token } = await someone();
    const cases: Array<[string, RegExp]> = [
      ['timeZone=Mars%2FOlympus&dateFrom=2040-01-10', /^timeZone: /],
      ['dateFrom=2040-13-45', /^dateFrom: /],
    ];
    for (const [query, message] of cases) {
      const res = await server.api('GET', `/v2/calendars/busy-times?${query}`, token);
      expect(res.status, query).toBe(400);
      expect(res.body.error.message, query).toMatch(message);
    }
  });

  it.skipIf(!available)('GET /v2/calendars/ics-feed/check without a url → 200 on the saved feeds, each checked again; with a url, as before', async () => {
    const { user, token } = await someone();
    const none = await server.api('GET', '/v2/calendars/ics-feed/check', token);
    expect(none.status).toBe(200);
    expect(none.body.data).toEqual({ valid: false, saved: false, feeds: [] });
    await server.services.stores.api.connectedApps.insertAll([
      { id: 'a-feed-' + user.id, owner: { userId: user.id }, app: 'ics-feed', category: 'calendar', account: 'https://calendar.example.com/a.ics', name: 'a', readOnly: true, createdAt: server.clock() },
      { id: 'b-feed-' + user.id, owner: { userId: user.id }, app: 'ics-feed', category: 'calendar', account: 'https://127.0.0.1/b.ics', name: 'b', readOnly: true, createdAt: server.clock() },
    ]);
    const saved = await server.api('GET', '/v2/calendars/ics-feed/check', token);
    expect(saved.status).toBe(200);
    expect(saved.body.data).toMatchObject({ valid: false, saved: true, feeds: [{ url: 'https://calendar.example.com/a.ics', valid: true }, { url: 'https://127.0.0.1/b.ics', valid: false, problem: expect.any(String) }] });
    const one = await server.api('GET', `/v2/calendars/ics-feed/check?url=${encodeURIComponent('https://calendar.example.com/a.ics')}`, token);
    expect(one.body.data).toEqual({ url: 'https://calendar.example.com/a.ics', valid: true, saved: true });
  });

  it.skipIf(!available)('POST /v2/calendars/{calendar}/disconnect with the platform’s {id} as a number-like credential id → 200 and the connection is gone; an unknown id → 404', async () => {
    const { user, token } = await someone();
    const id = String(Date.now());
    await server.services.stores.api.connectedApps.insertAll([{ id, owner: { userId: user.id }, app: 'google-calendar', category: 'calendar', account: `${id}@example.com`, name: 'Work', readOnly: false, createdAt: server.clock() }]);
    const res = await server.api('POST', '/v2/calendars/google/disconnect', token, { id: Number(id) });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ id: Number(id), type: 'google_calendar', userId: Number(user.id), teamId: null, appId: 'google-calendar', invalid: false, deleted: true });
    expect(await server.services.stores.api.connectedApps.list({ userId: user.id })).toEqual([]);
    const again = await server.api('POST', '/v2/calendars/google/disconnect', token, { id: Number(id) });
    expect(again.status).toBe(404);
  });

  it.skipIf(!available)('GET /v2/calendars → the platform’s connectedCalendars and destinationCalendar (the first one not read-only), and Gatehouse’s connections', async () => {
    const { user, token } = await someone();
    const none = await server.api('GET', '/v2/calendars', token);
    expect(none.body.data).toEqual({ connectedCalendars: [], connections: [] });
    const at = server.clock();
    const feed = { id: String(at), owner: { userId: user.id }, app: 'ics-feed', category: 'calendar', account: 'https://calendar.example.com/a.ics', name: 'calendar.example.com', readOnly: true, createdAt: at };
    const work = { id: String(at + 1), owner: { userId: user.id }, app: 'google-calendar', category: 'calendar', account: `w${at}@example.com`, name: 'Work', readOnly: false, createdAt: at + 1 };
    await server.services.stores.api.connectedApps.insertAll([feed, work]);
    const res = await server.api('GET', '/v2/calendars', token);
    expect(res.status).toBe(200);
    const google = res.body.data.connectedCalendars.find((c: { credentialId: number }) => c.credentialId === Number(work.id));
    const calendar = { externalId: work.account, integration: 'google_calendar', name: 'Work', primary: true, readOnly: false, email: work.account, isSelected: false, credentialId: Number(work.id) };
    expect(google).toEqual({
      integration: expect.objectContaining({ name: 'Google Calendar', type: 'google_calendar', slug: 'google-calendar', variant: 'calendar', categories: ['calendar'], locationOption: null }),
      credentialId: Number(work.id),
      primary: calendar,
      calendars: [calendar],
    });
    expect(res.body.data.destinationCalendar).toEqual({
      id: Number(work.id), integration: 'google_calendar', externalId: work.account, primaryEmail: work.account, userId: Number(user.id),
      eventTypeId: null, credentialId: Number(work.id), name: 'Work', primary: true, readOnly: false,
    });
    expect(res.body.data.connections.map((c: { id: number }) => c.id).sort()).toEqual([Number(feed.id), Number(work.id)].sort());
  });

  it.skipIf(!available)('POST /v2/selected-calendars → 201 in the platform shape; GET /v2/calendars shows it selected; DELETE with the same query → 200 and it is not', async () => {
    const { user, token } = await someone();
    const work = await f.app({ userId: user.id }, 'google-calendar');
    const other = await f.app({ userId: user.id }, 'office365-calendar');
    expect(await selectedOf(token)).toEqual({ [work.id]: false, [other.id]: false });

    const added = await server.api('POST', '/v2/selected-calendars', token, { integration: 'google_calendar', externalId: work.account, credentialId: Number(work.id) });
    expect(added.status).toBe(201);
    expect(added.body).toEqual({ status: 'success', data: { userId: Number(user.id), integration: 'google_calendar', externalId: work.account, credentialId: Number(work.id) } });
    expect(await selectedOf(token)).toEqual({ [work.id]: true, [other.id]: false });
    // Selecting again changes nothing and answers alike.
    expect((await server.api('POST', '/v2/selected-calendars', token, { integration: 'google_calendar', externalId: work.account, credentialId: Number(work.id) })).status).toBe(201);

    const query = `integration=google_calendar&externalId=${encodeURIComponent(work.account)}&credentialId=${work.id}`;
    const removed = await server.api('DELETE', `/v2/selected-calendars?${query}`, token);
    expect(removed.status).toBe(200);
    expect(removed.body.data).toEqual({ userId: Number(user.id), integration: 'google_calendar', externalId: work.account, credentialId: Number(work.id) });
    expect(await selectedOf(token)).toEqual({ [work.id]: false, [other.id]: false });
    // Not selected any more: nothing to delete.
    const again = await server.api('DELETE', `/v2/selected-calendars?${query}`, token);
    expect(again.status).toBe(404);
    expect(again.body.error.message).toMatch(/not selected/);
  });

  it.skipIf(!available)('PUT /v2/destination-calendars → 200 in the platform shape; GET /v2/calendars names it the destination instead of the first writable one', async () => {
    const { user, token } = await someone();
    const first = await f.app({ userId: user.id }, 'google-calendar');
    const second = await f.app({ userId: user.id }, 'office365-calendar');
    expect((await listed(token)).destinationCalendar?.credentialId).toBe(Number(first.id));

    const res = await server.api('PUT', '/v2/destination-calendars', token, { integration: 'office365_calendar', externalId: second.account });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'success', data: { userId: Number(user.id), integration: 'office365_calendar', externalId: second.account, credentialId: Number(second.id) } });
    expect((await listed(token)).destinationCalendar).toMatchObject({ id: Number(second.id), credentialId: Number(second.id), externalId: second.account, integration: 'office365_calendar' });
  });

  it.skipIf(!available)("calendar choices Cal.com's schemas refuse → 400 naming the field: a missing field, a credentialId not a number, an ICS feed as destination (the service's refusals: connected-apps.test.ts)", async () => {
    const { user, token } = await someone();
    const calendar = await f.app({ userId: user.id }, 'google-calendar');
    const named = { integration: 'google_calendar', externalId: calendar.account, credentialId: Number(calendar.id) };
    const cases: Array<[string, string, unknown, RegExp]> = [
      ['POST', '/v2/selected-calendars', { integration: 'google_calendar', externalId: calendar.account }, /credentialId/],
      ['POST', '/v2/selected-calendars', { ...named, credentialId: 'first' }, /credentialId/],
      ['DELETE', `/v2/selected-calendars?integration=google_calendar&credentialId=${calendar.id}`, undefined, /externalId/],
      ['PUT', '/v2/destination-calendars', { integration: 'ics-feed_calendar', externalId: 'https://calendar.example.com/a.ics' }, /integration/],
      ['PUT', '/v2/destination-calendars', { externalId: calendar.account }, /integration/],
    ];
    for (const [method, path, body, message] of cases) {
      const res = await server.api(method, path, token, body);
      expect(res.status, `${method} ${path} ${JSON.stringify(body)}`).toBe(400);
      expect(res.body.error.message, JSON.stringify(body)).toMatch(message);
    }
  });

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
