// Public booking operations act for the booker (docs/rules.md#public-booking,
// docs/rules.md#membership-rules): cancel and reschedule need the booking's manageToken, returned once
// at creation, or an access token with the booking write scope of the booking's family.
// Everything through real HTTP, on both databases.
import { describe, expect, it } from 'vitest';
import { generateToken, hashToken } from '../../src/oauth/token-format.ts';
import { backends } from '../helpers/backends.ts';
import type { TestServer } from '../helpers/server.ts';
import { fixtures, futureStart, mint, type World, useWorld } from './fixtures.ts';

const iso = (ms: number) => new Date(ms).toISOString();
const attendee = { name: 'Bea Booker', email: 'bea@example.com', timeZone: 'Europe/Paris' };

/** What an answer says, apart from when and where it was given (docs/rules.md#api-envelope). */
const answer = (body: { status: string; error?: unknown }) => ({ status: body.status, error: body.error });

describe.each(backends)('booking manageToken on $name', ({ name, available }) => {
  let server: TestServer;
  let w: World;
  let f: ReturnType<typeof fixtures>;
  useWorld(name, available, (started) => ({ server, w, f } = started), { LOG_LEVEL: 'warn' });

  /** A booking made as a booker makes it: the public route, no token. */
  async function bookPublicly(owner: { userId: string } | { teamId: string }) {
    const et = await f.eventType(owner);
    const res = await server.api('POST', '/v2/bookings', undefined, { eventTypeId: et.id, start: iso(futureStart(server)), attendee });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return { uid: res.body.data.uid as string, manageToken: res.body.data.manageToken as string, created: res.body };
  }

  const unknownUid = async (path: 'cancel' | 'reschedule', body: Record<string, unknown>) => server.api('POST', `/v2/bookings/noSuchBookingUid/${path}`, undefined, body);
  /** The booking's status as the platform's clients read it, naming the documented version (docs/integrating.md#api-versions). */
  const status = async (uid: string) => (await server.api('GET', `/v2/bookings/${uid}`, await mint(server, w, w.owner, ['BOOKING_READ']), undefined, { 'cal-api-version': '2024-08-13' })).body.data.status as string;

  it.skipIf(!available)('refuses the attack: a BOOKING_READ token lists the uids, but the public routes want the manageToken (docs/rules.md#public-booking)', async () => {
    const { uid, manageToken } = await bookPublicly({ userId: w.owner.id });
    const reader = await mint(server, w, w.owner, ['BOOKING_READ']);
    const list = await server.api('GET', '/v2/bookings?limit=100', reader);
    expect(list.body.data.map((b: { uid: string }) => b.uid)).toContain(uid);

    // No token, no manageToken: 400 naming the field, on both routes, with or without a body.
    for (const [path, body] of [['cancel', undefined], ['cancel', { cancellationReason: 'gone' }], ['reschedule', { start: iso(futureStart(server)) }]] as const) {
      const res = await server.api('POST', `/v2/bookings/${uid}/${path}`, undefined, body);
      expect(res.status, path).toBe(400);
      expect(res.body.error.code).toBe('validation_error');
      expect(res.body.error.message).toMatch(/^manageToken: /);
    }

    // A wrong manageToken (well-formed or not) answers exactly like an unknown uid.
    for (const path of ['cancel', 'reschedule'] as const) {
      const extra = path === 'reschedule' ? { start: iso(futureStart(server)) } : {};
      const unknown = await unknownUid(path, { ...extra, manageToken });
      expect(unknown.status).toBe(404);
      for (const wrong of [generateToken('bookingManageToken'), 'not-a-token', manageToken.slice(0, -1) + (manageToken.endsWith('a') ? 'b' : 'a')]) {
        const res = await server.api('POST', `/v2/bookings/${uid}/${path}`, undefined, { ...extra, manageToken: wrong });
        expect(res.status, `${path} ${wrong}`).toBe(404);
        expect(answer(res.body)).toEqual(answer(unknown.body));
      }
    }
    expect(await status(uid)).toBe('accepted');

    // The right one cancels.
    const cancelled = await server.api('POST', `/v2/bookings/${uid}/cancel`, undefined, { manageToken, cancellationReason: 'plans changed' });
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.data).toMatchObject({ uid, status: 'cancelled', cancellationReason: 'plans changed' });
    expect(cancelled.body.data).not.toHaveProperty('manageToken');
  });

  it.skipIf(!available)('returns the manageToken once, at creation, and stores only its SHA-256 hash (docs/rules.md#public-booking, docs/rules.md#token-formats)', async () => {
    const et = await f.eventType({ userId: w.owner.id });
    const res = await server.api('POST', '/v2/bookings', undefined, { eventTypeId: et.id, start: iso(futureStart(server)), attendee });
    expect(res.status).toBe(201);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const { uid, manageToken } = res.body.data as { uid: string; manageToken: string };
    expect(manageToken).toMatch(/^gbm_[0-9A-Za-z]{49}$/);

    const reader = await mint(server, w, w.owner, ['BOOKING_READ']);
    const one = await server.api('GET', `/v2/bookings/${uid}`, reader);
    expect(one.status).toBe(200);
    expect(one.body.data).not.toHaveProperty('manageToken');
    const list = await server.api('GET', '/v2/bookings?limit=100', reader);
    expect(JSON.stringify(list.body)).not.toContain(manageToken);
    expect(list.body.data.find((b: { uid: string }) => b.uid === uid)).not.toHaveProperty('manageToken');

    const row = (await server.services.stores.bookings.find(uid))!;
    expect(row.manageTokenHash).toBe(hashToken(manageToken));
    expect(JSON.stringify(row)).not.toContain(manageToken);
  });

  it.skipIf(!available)('reschedules with the manageToken; the same manageToken manages the new booking, and no new one is issued', async () => {
    const { uid, manageToken } = await bookPublicly({ userId: w.owner.id });
    const later = futureStart(server);
    const moved = await server.api('POST', `/v2/bookings/${uid}/reschedule`, undefined, { start: iso(later), manageToken });
    expect(moved.status).toBe(201);
    expect(moved.body.data).toMatchObject({ rescheduledFromUid: uid, start: iso(later), status: 'accepted' });
    expect(moved.body.data).not.toHaveProperty('manageToken');
    // The platform has no rescheduled status: the booking moved away from is cancelled, and names the new one.
    expect(await status(uid)).toBe('cancelled');
    expect((await server.services.stores.bookings.find(uid))!.status).toBe('rescheduled');

    const again = await server.api('POST', `/v2/bookings/${uid}/cancel`, undefined, { manageToken });
    expect(again.status).toBe(409);
    const cancelled = await server.api('POST', `/v2/bookings/${moved.body.data.uid}/cancel`, undefined, { manageToken });
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.data.status).toBe('cancelled');
  });

  it.skipIf(!available)("a reschedule keeps the event type's minimum notice, with the manageToken as with the host's token", async () => {
    const et = await f.eventType({ userId: w.owner.id }, { minimumBookingNotice: 1440 });
    const booked = await server.api('POST', '/v2/bookings', undefined, { eventTypeId: et.id, start: iso(futureStart(server)), attendee });
    expect(booked.status, JSON.stringify(booked.body)).toBe(201);
    const { uid, manageToken } = booked.body.data as { uid: string; manageToken: string };
    const soon = iso(server.clock() + 5 * 60_000);
    // What creation refuses, a reschedule refuses, in the same words.
    const create = await server.api('POST', '/v2/bookings', undefined, { eventTypeId: et.id, start: soon, attendee });
    expect(create.status).toBe(400);
    const writer = await mint(server, w, w.owner, ['BOOKING_WRITE']);
    for (const [who, bearer, proof] of [['manageToken', undefined, { manageToken }], ['host token', writer, {}]] as const) {
      const res = await server.api('POST', `/v2/bookings/${uid}/reschedule`, bearer, { start: soon, ...proof });
      expect(res.status, who).toBe(400);
      expect(res.body.error, who).toMatchObject({ code: 'validation_error', message: create.body.error.message });
      expect(res.body.error.message).toBe('start: must be at least 1440 minutes from now');
    }
    expect(await status(uid)).toBe('accepted');
    // Far enough ahead, it moves.
    const moved = await server.api('POST', `/v2/bookings/${uid}/reschedule`, undefined, { start: iso(futureStart(server)), manageToken });
    expect(moved.status).toBe(201);
  });

  it.skipIf(!available)('the manageToken needs no scope, with or without an access token beside it; beside it, a wrong one is still 404 (docs/rules.md#public-booking)', async () => {
    const { uid, manageToken } = await bookPublicly({ userId: w.owner.id });
    const stranger = await mint(server, w, w.outsider, []);
    const wrong = await server.api('POST', `/v2/bookings/${uid}/cancel`, stranger, { manageToken: generateToken('bookingManageToken') });
    expect(wrong.status).toBe(404);
    expect(answer(wrong.body)).toEqual(answer((await unknownUid('cancel', { manageToken })).body));
    // Even the host's write token does not rescue a wrong manageToken: the manageToken, when sent, decides.
    const hostWriter = await mint(server, w, w.owner, ['BOOKING_WRITE']);
    expect((await server.api('POST', `/v2/bookings/${uid}/cancel`, hostWriter, { manageToken: 'wrong' })).status).toBe(404);

    const ok = await server.api('POST', `/v2/bookings/${uid}/cancel`, stranger, { manageToken });
    expect(ok.status).toBe(200);
    expect(ok.body.data.status).toBe('cancelled');
  });

  it.skipIf(!available)("without a manageToken, the host's token needs BOOKING_WRITE for a personal booking; another user's token is 404 (docs/rules.md#public-booking, docs/rules.md#membership-rules)", async () => {
    const { uid } = await bookPublicly({ userId: w.owner.id });
    const reader = await mint(server, w, w.owner, ['BOOKING_READ']);
    for (const [path, body] of [['cancel', {}], ['reschedule', { start: iso(futureStart(server)) }]] as const) {
      const res = await server.api('POST', `/v2/bookings/${uid}/${path}`, reader, body);
      expect(res.status, path).toBe(403);
      expect(res.body.error.code).toBe('insufficient_scope');
      expect(res.body.error.message).toContain('BOOKING_WRITE');
      expect(res.headers.get('www-authenticate')).toBe('Bearer error="insufficient_scope", scope="BOOKING_WRITE"');
    }
    // Another user's token, whatever its scopes, does not learn that the booking exists.
    const unknown = await server.api('POST', '/v2/bookings/noSuchBookingUid/cancel', await mint(server, w, w.outsider, ['BOOKING_WRITE']), {});
    expect(unknown.status).toBe(404);
    for (const scopes of [['BOOKING_WRITE'], ['BOOKING_READ'], null]) {
      const res = await server.api('POST', `/v2/bookings/${uid}/cancel`, await mint(server, w, w.outsider, scopes), {});
      expect(res.status, String(scopes)).toBe(404);
      expect(answer(res.body)).toEqual(answer(unknown.body));
    }
    expect(await status(uid)).toBe('accepted');

    const writer = await mint(server, w, w.owner, ['BOOKING_WRITE']);
    const later = futureStart(server);
    const moved = await server.api('POST', `/v2/bookings/${uid}/reschedule`, writer, { start: iso(later) });
    expect(moved.status).toBe(201);
    expect(moved.body.data).toMatchObject({ rescheduledFromUid: uid, start: iso(later) });
    const cancelled = await server.api('POST', `/v2/bookings/${moved.body.data.uid}/cancel`, writer, { cancellationReason: 'host is ill' });
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.data).toMatchObject({ status: 'cancelled', cancellationReason: 'host is ill' });

    // A legacy token passes the scope check, for its own user's booking only (docs/rules.md#scope-checks).
    const other = await bookPublicly({ userId: w.owner.id });
    expect((await server.api('POST', `/v2/bookings/${other.uid}/cancel`, await mint(server, w, w.owner, null), {})).status).toBe(200);
  });

  it.skipIf(!available)('without a manageToken, a team booking needs TEAM_BOOKING_WRITE (or ORG_BOOKING_WRITE) of a team admin or organization admin (docs/rules.md#public-booking, docs/rules.md#membership-rules)', async () => {
    const first = await bookPublicly({ teamId: w.team.id });
    const path = `/v2/bookings/${first.uid}/cancel`;

    // The personal scope is not the team booking's family, even for its host.
    const hostPersonal = await server.api('POST', path, await mint(server, w, w.owner, ['BOOKING_WRITE']), {});
    expect(hostPersonal.status).toBe(403);
    expect(hostPersonal.headers.get('www-authenticate')).toBe('Bearer error="insufficient_scope", scope="TEAM_BOOKING_WRITE"');
    // A plain member may read the team's bookings, not change them.
    const member = await server.api('POST', path, await mint(server, w, w.member, ['TEAM_BOOKING_WRITE']), {});
    expect(member.status).toBe(403);
    expect(member.body.error.code).toBe('forbidden');
    // Someone outside the team and its organization learns nothing.
    const outsider = await server.api('POST', path, await mint(server, w, w.outsider, ['TEAM_BOOKING_WRITE', 'ORG_BOOKING_WRITE']), {});
    expect(outsider.status).toBe(404);
    expect(answer(outsider.body)).toEqual(answer((await server.api('POST', '/v2/bookings/noSuchBookingUid/cancel', await mint(server, w, w.outsider, ['TEAM_BOOKING_WRITE']), {})).body));
    expect(await status(first.uid)).toBe('accepted');

    const byTeamAdmin = await server.api('POST', path, await mint(server, w, w.teamAdmin, ['TEAM_BOOKING_WRITE']), {});
    expect(byTeamAdmin.status).toBe(200);
    expect(byTeamAdmin.body.data.status).toBe('cancelled');

    // docs/rules.md#scope-checks: ORG_BOOKING_WRITE of an organization admin stands in for TEAM_BOOKING_WRITE.
    const second = await bookPublicly({ teamId: w.team.id });
    const later = futureStart(server);
    const byOrgAdmin = await server.api('POST', `/v2/bookings/${second.uid}/reschedule`, await mint(server, w, w.orgAdmin, ['ORG_BOOKING_WRITE']), { start: iso(later) });
    expect(byOrgAdmin.status).toBe(201);
    expect(byOrgAdmin.body.data).toMatchObject({ rescheduledFromUid: second.uid, teamId: Number(w.team.id), start: iso(later) });
  });

  it.skipIf(!available)('a team booking made by a team admin for an attendee also returns its manageToken, once', async () => {
    const et = await f.eventType({ teamId: w.team.id });
    const admin = await mint(server, w, w.teamAdmin, ['TEAM_BOOKING_WRITE', 'TEAM_BOOKING_READ']);
    const created = await server.api('POST', `/v2/teams/${w.team.id}/bookings`, admin, { eventTypeId: et.id, start: iso(futureStart(server)), attendee });
    expect(created.status).toBe(201);
    const { uid, manageToken } = created.body.data as { uid: string; manageToken: string };
    expect(manageToken).toMatch(/^gbm_/);
    expect((await server.api('GET', `/v2/teams/${w.team.id}/bookings/${uid}`, admin)).body.data).not.toHaveProperty('manageToken');
    expect((await server.api('POST', `/v2/bookings/${uid}/cancel`, undefined, { manageToken })).status).toBe(200);
  });

  it.skipIf(!available)('a manageToken of the wrong type or length is a 400 naming it, never a 500', async () => {
    const { uid } = await bookPublicly({ userId: w.owner.id });
    for (const manageToken of ['', 'x'.repeat(300), { token: 'x' }, ['a', 'b'], null]) {
      const res = await server.api('POST', `/v2/bookings/${uid}/cancel`, undefined, { manageToken });
      expect(res.status, JSON.stringify(manageToken)).toBe(400);
      expect(res.body.error.message).toMatch(/^manageToken: /);
    }
  });
});
