// The user's calendar choices at Cal.com API v2's addresses: POST/DELETE /v2/selected-calendars
// and PUT /v2/destination-calendars store which calendars are selected and which one is written
// to, and GET /v2/calendars shows them (docs/integrating.md#calendars).
import { describe, expect, it } from 'vitest';
import { backends } from '../helpers/backends.ts';
import type { TestServer } from '../helpers/server.ts';
import { fixtures, mint, quickUser, type World, useWorld } from './fixtures.ts';

describe.each(backends)('selected and destination calendars on $name', ({ name, available }) => {
  let server: TestServer;
  let w: World;
  let f: ReturnType<typeof fixtures>;
  useWorld(name, available, (started) => ({ server, w, f } = started));

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

  it.skipIf(!available)('PUT /v2/destination-calendars → 200; GET /v2/calendars names it the destination instead of the first writable one; a disconnect takes the choice with it', async () => {
    const { user, token } = await someone();
    const first = await f.app({ userId: user.id }, 'google-calendar');
    const second = await f.app({ userId: user.id }, 'office365-calendar');
    expect((await listed(token)).destinationCalendar?.credentialId).toBe(Number(first.id));

    const res = await server.api('PUT', '/v2/destination-calendars', token, { integration: 'office365_calendar', externalId: second.account });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'success', data: { userId: Number(user.id), integration: 'office365_calendar', externalId: second.account, credentialId: Number(second.id) } });
    expect((await listed(token)).destinationCalendar).toMatchObject({ id: Number(second.id), credentialId: Number(second.id), externalId: second.account, integration: 'office365_calendar' });

    // Back to the first: one destination at a time.
    expect((await server.api('PUT', '/v2/destination-calendars', token, { integration: 'google_calendar', externalId: first.account })).status).toBe(200);
    expect((await listed(token)).destinationCalendar?.credentialId).toBe(Number(first.id));
    expect((await server.services.stores.api.connectedApps.list({ userId: user.id })).filter((a) => a.destination).map((a) => a.id)).toEqual([first.id]);

    const gone = await server.api('POST', '/v2/calendars/google/disconnect', token, { id: Number(first.id) });
    expect(gone.status).toBe(200);
    // The choice went with it: the first writable calendar left is the destination again.
    expect((await listed(token)).destinationCalendar?.credentialId).toBe(Number(second.id));
  });

  it.skipIf(!available)("another user's calendar is 404 to select, unselect or make the destination, and nothing of theirs changes", async () => {
    const { token } = await someone();
    const { user: owner, token: ownersToken } = await someone();
    const theirs = await f.app({ userId: owner.id }, 'google-calendar');
    const select = await server.api('POST', '/v2/selected-calendars', token, { integration: 'google_calendar', externalId: theirs.account, credentialId: Number(theirs.id) });
    expect(select.status).toBe(404);
    await server.services.stores.api.connectedApps.setSelected(owner.id, theirs.id, true);
    const unselect = await server.api('DELETE', `/v2/selected-calendars?integration=google_calendar&externalId=${encodeURIComponent(theirs.account)}&credentialId=${theirs.id}`, token);
    expect(unselect.status).toBe(404);
    const destination = await server.api('PUT', '/v2/destination-calendars', token, { integration: 'google_calendar', externalId: theirs.account });
    expect(destination.status).toBe(404);
    expect(await selectedOf(ownersToken)).toEqual({ [theirs.id]: true });
  });

  it.skipIf(!available)('a token without APPS_WRITE is 403 insufficient_scope naming it', async () => {
    const user = await quickUser(server);
    const token = await mint(server, w, user, ['APPS_READ']);
    const calendar = await f.app({ userId: user.id }, 'google-calendar');
    const calls: Array<[string, string, unknown]> = [
      ['POST', '/v2/selected-calendars', { integration: 'google_calendar', externalId: calendar.account, credentialId: Number(calendar.id) }],
      ['DELETE', `/v2/selected-calendars?integration=google_calendar&externalId=x&credentialId=${calendar.id}`, undefined],
      ['PUT', '/v2/destination-calendars', { integration: 'google_calendar', externalId: calendar.account }],
    ];
    for (const [method, path, body] of calls) {
      const res = await server.api(method, path, token, body);
      expect(res.status, path).toBe(403);
      expect(res.body.error.code).toBe('insufficient_scope');
      expect(res.headers.get('www-authenticate')).toBe('Bearer error="insufficient_scope", scope="APPS_WRITE"');
    }
  });

  it.skipIf(!available)('bad choices → 400 naming the field: a missing or mismatched field, a read-only destination, an ICS feed as destination, a delegation credential', async () => {
    const { user, token } = await someone();
    const calendar = await f.app({ userId: user.id }, 'google-calendar');
    const readOnly = await f.app({ userId: user.id }, 'apple-calendar');
    await server.services.stores.transaction(async (tx) => {
      await tx.api.connectedApps.delete({ userId: user.id }, 'apple-calendar', readOnly.id);
      await tx.api.connectedApps.insertAll([{ ...readOnly, readOnly: true }]);
    });
    const named = { integration: 'google_calendar', externalId: calendar.account, credentialId: Number(calendar.id) };
    const cases: Array<[string, string, unknown, RegExp]> = [
      ['POST', '/v2/selected-calendars', { integration: 'google_calendar', externalId: calendar.account }, /credentialId/],
      ['POST', '/v2/selected-calendars', { ...named, integration: 'office365_calendar' }, /^integration: must be google_calendar/],
      ['POST', '/v2/selected-calendars', { ...named, externalId: 'someone-else@example.com' }, /^externalId: must be /],
      ['POST', '/v2/selected-calendars', { ...named, credentialId: 'first' }, /credentialId/],
      ['POST', '/v2/selected-calendars', { ...named, delegationCredentialId: 'd1' }, /^delegationCredentialId: /],
      ['DELETE', `/v2/selected-calendars?integration=google_calendar&credentialId=${calendar.id}`, undefined, /externalId/],
      ['PUT', '/v2/destination-calendars', { integration: 'apple_calendar', externalId: readOnly.account }, /^externalId: is a read-only calendar/],
      ['PUT', '/v2/destination-calendars', { integration: 'ics-feed_calendar', externalId: 'https://calendar.example.com/a.ics' }, /integration/],
      ['PUT', '/v2/destination-calendars', { externalId: calendar.account }, /integration/],
    ];
    for (const [method, path, body, message] of cases) {
      const res = await server.api(method, path, token, body);
      expect(res.status, `${method} ${path} ${JSON.stringify(body)}`).toBe(400);
      expect(res.body.error.message, JSON.stringify(body)).toMatch(message);
    }
  });
});
