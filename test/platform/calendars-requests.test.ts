// Cal.com API v2's own calendar requests, as its OpenAPI description writes them: busy times by
// dateFrom/dateTo in a timeZone (with the calendar's credentialId and externalId, which
// Gatehouse reads and ignores: busy times come from its bookings), the ICS feed check with no
// parameter, and a disconnect naming the credential by a number. Gatehouse's own requests
// (start/end instants, a url to check) keep working.
import { describe, expect, it } from 'vitest';
import { backends } from '../helpers/backends.ts';
import type { TestServer } from '../helpers/server.ts';
import { fixtures, mint, quickUser, type World, useWorld } from './fixtures.ts';

const DAY = 86_400_000;

describe.each(backends)('the platform’s calendar requests on $name', ({ name, available }) => {
  let server: TestServer;
  let w: World;
  let f: ReturnType<typeof fixtures>;
  useWorld(name, available, (started) => ({ server, w, f } = started), { OUTBOUND_ALLOW_PRIVATE: '0' });

  /** A user of their own, so no other test's bookings or feeds show up. */
  async function someone() {
    const user = await quickUser(server);
    return { user, token: await mint(server, w, user, ['APPS_READ', 'APPS_WRITE']) };
  }

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

  it.skipIf(!available)('GET /v2/calendars/busy-times with a bad zone, a reversed or too long period, or start without end → 400 naming the field', async () => {
    const { token } = await someone();
    const cases: Array<[string, RegExp]> = [
      ['timeZone=Mars%2FOlympus&dateFrom=2040-01-10', /^timeZone: /],
      ['dateFrom=2040-01-10&dateTo=2040-01-09', /^dateTo: must be later than dateFrom/],
      ['dateFrom=2040-01-01&dateTo=2040-04-01', /^dateTo: the period may span at most 62 days/],
      ['dateFrom=2040-13-45', /^dateFrom: /],
      ['start=2040-01-01T00:00:00Z', /^end: is required with the other/],
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
});
