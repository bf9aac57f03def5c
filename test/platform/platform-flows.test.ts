// The platform API end to end: tokens from the real browser flow, the cost in queries of a
// guarded request, and the rules of each resource (bookings, verification, memberships,
// validation) on both databases.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiRoutes } from '../../src/platform/route-table.ts';
import { acceptInvitation } from '../../src/services/teams/invitations.ts';
import { addMember, createOrganization, createTeam } from '../../src/services/teams/teams.ts';
import { backends } from '../helpers/backends.ts';
import { startCountingServer, type StatementCounter } from '../helpers/counting-server.ts';
import type { TestServer } from '../helpers/server.ts';
import { auditEvents } from '../helpers/stores.ts';
import { ALL_SCOPES, buildWorld, fillPath, fixtures, futureStart, mint, quickUser, uniq, type World, useWorld } from './fixtures.ts';
import { examples } from './route-examples.ts';

const iso = (ms: number) => new Date(ms).toISOString();

describe.each(backends)('platform API flows on $name', ({ name, available }) => {
  let server: TestServer;
  let w: World;
  let f: ReturnType<typeof fixtures>;
  useWorld(name, available, (started) => ({ server, w, f } = started));

  /** The whole front channel and code exchange: a token as a real application gets it. */
  async function realToken(user: { id: string; email: string; password: string }, scopes: string[] | null) {
    const dev = await server.user();
    const client = await server.client(dev, { scopes });
    const code = await server.code(client, user, { scope: (scopes ?? ['PROFILE_READ']).join(' ') });
    const res = await server.exchange(client, code);
    expect(res.status).toBe(200);
    return res.body as { access_token: string; scope: string };
  }

  describe('tokens from the real authorization flow', () => {
    it.skipIf(!available)('a team member reads team event types with TEAM_EVENT_TYPE_READ, but may not write or read the organization (docs/rules.md#membership-rules)', async () => {
      const alice = await server.user({ name: 'Alice' });
      await addMember(server.services, { teamId: w.team.id }, alice.id, 'member');
      const et = await f.eventType({ teamId: w.team.id });
      const token = await realToken(alice, ['TEAM_EVENT_TYPE_READ', 'TEAM_EVENT_TYPE_WRITE', 'ORG_BOOKING_READ']);
      expect(token.scope).toBe('TEAM_EVENT_TYPE_READ TEAM_EVENT_TYPE_WRITE ORG_BOOKING_READ');

      const list = await server.api('GET', `/v2/teams/${w.team.id}/event-types`, token.access_token);
      expect(list.status).toBe(200);
      expect(list.body.data.map((e: { id: string }) => e.id)).toContain(Number(et.id));
      const write = await server.api('POST', `/v2/teams/${w.team.id}/event-types`, token.access_token, { title: 'Mine', slug: 'mine', lengthInMinutes: 15 });
      expect(write.status).toBe(403);
      expect(write.body.error.code).toBe('forbidden');
      const org = await server.api('GET', `/v2/organizations/${w.org.id}/bookings`, token.access_token);
      expect(org.status).toBe(403);
      expect(org.body.error.code).toBe('forbidden');
      const me = await server.api('GET', '/v2/me', token.access_token);
      expect(me.status).toBe(403);
      expect(me.headers.get('www-authenticate')).toBe('Bearer error="insufficient_scope", scope="PROFILE_READ"');
    });

    it.skipIf(!available)("an organization admin reaches the organization's team with ORG_EVENT_TYPE_WRITE alone (docs/rules.md#scope-checks)", async () => {
      const olga = await server.user({ name: 'Olga' });
      await addMember(server.services, { organizationId: w.org.id }, olga.id, 'admin');
      const token = await realToken(olga, ['ORG_EVENT_TYPE_WRITE', 'ORG_EVENT_TYPE_READ']);
      const created = await server.api('POST', `/v2/organizations/${w.org.id}/teams/${w.team.id}/event-types`, token.access_token, { title: 'Org demo', slug: `org-demo-${uniq().toLowerCase()}`, lengthInMinutes: 20 });
      expect(created.status).toBe(201);
      expect(created.body.data).toMatchObject({ teamId: Number(w.team.id), ownerId: null, lengthInMinutes: 20, schedulingType: 'collective' });
      const all = await server.api('GET', `/v2/organizations/${w.org.id}/event-types?limit=100`, token.access_token);
      expect(all.body.data.map((e: { id: string }) => e.id)).toContain(created.body.data.id);
      // The same scope does not reach a team of another organization.
      const other = await server.api('GET', `/v2/organizations/${w.org.id}/teams/${w.otherTeam.id}/event-types`, token.access_token);
      expect(other.status).toBe(404);
    });

    it.skipIf(!available)("a legacy client's token passes scope checks but gets no membership it does not have (docs/rules.md#membership-rules)", async () => {
      const lee = await server.user({ name: 'Lee' });
      const token = await realToken(lee, null);
      expect(token.scope).toBe('');
      expect((await server.api('GET', '/v2/me', token.access_token)).status).toBe(200);
      expect((await server.api('GET', '/v2/bookings', token.access_token)).status).toBe(200);
      const team = await server.api('GET', `/v2/teams/${w.team.id}`, token.access_token);
      expect(team.status).toBe(403);
      expect(team.body.error.code).toBe('forbidden');
      await addMember(server.services, { teamId: w.team.id }, lee.id, 'member');
      expect((await server.api('GET', `/v2/teams/${w.team.id}`, token.access_token)).status).toBe(200);
    });
  });

  describe('bookings', () => {
    it.skipIf(!available)('ten concurrent public bookings of one host at one time: exactly one is made (the availability check and the insert share the host lock)', async () => {
      const et = await f.eventType({ userId: w.owner.id }, { lengthInMinutes: 30 });
      const start = futureStart(server) + 7 * 24 * 3600_000;
      const results = await Promise.all(
        Array.from({ length: 10 }, (_, i) =>
          server.api('POST', '/v2/bookings', undefined, { eventTypeId: et.id, start: iso(start), attendee: { name: `P${i}`, email: `p${i}@example.com`, timeZone: 'UTC' } }),
        ),
      );
      expect(results.filter((r) => r.status === 201)).toHaveLength(1);
      expect(results.filter((r) => r.status === 409)).toHaveLength(9);
    });

    it.skipIf(!available)('public booking, confirmation, reschedule and cancel, with the host and status rules (docs/rules.md#public-booking)', async () => {
      const et = await f.eventType({ userId: w.owner.id }, { requiresConfirmation: true, lengthInMinutes: 45 });
      const start = futureStart(server);
      const created = await server.api('POST', '/v2/bookings', undefined, {
        eventTypeId: et.id,
        start: iso(start),
        attendee: { name: 'Pat', email: 'Pat@Example.com', timeZone: 'America/New_York' },
        guests: ['guest@example.com'],
      });
      expect(created.status).toBe(201);
      expect(created.body.data).toMatchObject({ status: 'pending', hostId: Number(w.owner.id), start: iso(start), end: iso(start + 45 * 60_000), durationInMinutes: 45, attendee: { email: 'pat@example.com' }, guests: ['guest@example.com'] });
      const uid = created.body.data.uid as string;

      // A slot of the host's 30-minute event type inside the pending 45 minutes: the host is taken.
      const short = await f.eventType({ userId: w.owner.id });
      const clash = await server.api('POST', '/v2/bookings', undefined, { eventTypeId: short.id, start: iso(start + 30 * 60_000), attendee: { name: 'Sam', email: 'sam@example.com', timeZone: 'UTC' } });
      expect(clash.status).toBe(409);
      expect(clash.body.error.message).toMatch(/^start: the host is not available/);

      const host = await mint(server, w, w.owner, ['BOOKING_READ', 'BOOKING_WRITE']);
      const pending = await server.api('GET', '/v2/bookings?status=pending&limit=100', host);
      expect(pending.body.data.map((b: { uid: string }) => b.uid)).toContain(uid);
      expect((await server.api('POST', `/v2/bookings/${uid}/confirm`, host)).body.data.status).toBe('accepted');
      const again = await server.api('POST', `/v2/bookings/${uid}/confirm`, host);
      expect(again.status).toBe(409);
      expect(again.body.error.code).toBe('conflict');

      const later = futureStart(server);
      // The booker acts with the manageToken of the booking (docs/rules.md#public-booking).
      const manageToken = created.body.data.manageToken as string;
      const moved = await server.api('POST', `/v2/bookings/${uid}/reschedule`, undefined, { start: iso(later), reschedulingReason: 'conflict', manageToken });
      expect(moved.status).toBe(201);
      expect(moved.body.data).toMatchObject({ rescheduledFromUid: uid, start: iso(later), status: 'accepted' });
      const old = await server.api('GET', `/v2/bookings/${uid}`, host, undefined, { 'cal-api-version': '2024-08-13' });
      // docs/integrating.md#booking-statuses: the platform calls the booking a reschedule moved away from cancelled.
      expect(old.body.data).toMatchObject({ status: 'cancelled', rescheduledToUid: moved.body.data.uid });
      // Without the version named, Gatehouse's own name for it (docs/integrating.md#api-versions).
      expect((await server.api('GET', `/v2/bookings/${uid}`, host)).body.data).toMatchObject({ status: 'rescheduled', rescheduledToUid: moved.body.data.uid });
      expect(old.body.data).toMatchObject({ cancellationReason: 'conflict', reschedulingReason: 'conflict' });
      expect(moved.body.data.cancellationReason).toBeNull();
      const rescheduled = await server.api('GET', '/v2/bookings?status=rescheduled&limit=100', host);
      expect(rescheduled.body.data.map((b: { uid: string }) => b.uid)).toContain(uid);

      const cancelled = await server.api('POST', `/v2/bookings/${moved.body.data.uid}/cancel`, undefined, { manageToken });
      expect(cancelled.body.data.status).toBe('cancelled');
      expect((await server.api('POST', `/v2/bookings/${moved.body.data.uid}/cancel`, undefined, { manageToken })).status).toBe(409);
      // The freed time can be booked again.
      const rebooked = await server.api('POST', '/v2/bookings', undefined, { eventTypeId: et.id, start: iso(later), attendee: { name: 'Sam', email: 'sam@example.com', timeZone: 'UTC' } });
      expect(rebooked.status).toBe(201);
    });

    it.skipIf(!available)('a hidden event type is booked only through a private link, within its uses', async () => {
      const et = await f.eventType({ userId: w.owner.id }, { hidden: true });
      const body = (privateLink?: string) => ({ eventTypeId: et.id, start: iso(futureStart(server)), attendee: { name: 'Kim', email: 'kim@example.com', timeZone: 'UTC' }, ...(privateLink ? { privateLink } : {}) });
      expect((await server.api('POST', '/v2/bookings', undefined, body())).status).toBe(404);
      const owner = await mint(server, w, w.owner, ['EVENT_TYPE_WRITE', 'EVENT_TYPE_READ']);
      const link = await server.api('POST', `/v2/event-types/${et.id}/private-links`, owner, { maxUsageCount: 1 });
      expect(link.status).toBe(201);
      expect(link.body.data.bookingUrl).toBe(`${server.url}/d/${link.body.data.hash}`);
      expect((await server.api('POST', '/v2/bookings', undefined, body(link.body.data.hash))).status).toBe(201);
      expect((await server.api('POST', '/v2/bookings', undefined, body(link.body.data.hash))).status).toBe(404);
      const links = await server.api('GET', `/v2/event-types/${et.id}/private-links`, owner);
      expect(links.body.data[0]).toMatchObject({ usageCount: 1, maxUsageCount: 1 });
    });

    it.skipIf(!available)('a start in the past, an unknown time zone or a bad email is 400 naming the field', async () => {
      const et = await f.eventType({ userId: w.owner.id });
      const attendee = { name: 'Al', email: 'al@example.com', timeZone: 'UTC' };
      const past = await server.api('POST', '/v2/bookings', undefined, { eventTypeId: et.id, start: iso(server.clock() - 3600_000), attendee });
      expect(past.status).toBe(400);
      expect(past.body.error).toEqual({ code: 'validation_error', message: 'start: must be in the future' });
      const zone = await server.api('POST', '/v2/bookings', undefined, { eventTypeId: et.id, start: iso(futureStart(server)), attendee: { ...attendee, timeZone: 'Mars/Olympus' } });
      expect(zone.body.error.message).toMatch(/^attendee\.timeZone: /);
      const mail = await server.api('POST', '/v2/bookings', undefined, { eventTypeId: et.id, start: iso(futureStart(server)), attendee: { ...attendee, email: 'nope' } });
      expect(mail.body.error.message).toMatch(/^attendee\.email: /);
      const missing = await server.api('POST', '/v2/bookings', undefined, { eventTypeId: et.id, attendee });
      expect(missing.body.error.message).toBe('start: is required');
    });

    it.skipIf(!available)('busy times and calendar links come from the stored bookings, not from outside services', async () => {
      const start = futureStart(server);
      const b = await f.booking({ hostId: w.orgAdmin.id, start });
      const token = await mint(server, w, w.orgAdmin, ['APPS_READ', 'BOOKING_READ']);
      const busy = await server.api('GET', `/v2/calendars/busy-times?start=${encodeURIComponent(iso(start - 3600_000))}&end=${encodeURIComponent(iso(start + 3600_000))}`, token);
      expect(busy.body.data).toEqual([{ start: iso(start), end: iso(start + 30 * 60_000), source: 'booking', bookingUid: b.uid }]);
      const links = await server.api('GET', `/v2/bookings/${b.uid}/calendar-links`, token);
      // The platform's list of {label, link}; Gatehouse's id beside each names the calendar.
      expect(links.body.data.map((l: { id: string }) => l.id)).toEqual(['google', 'outlook', 'office365', 'yahoo', 'ics']);
      const link = (id: string) => links.body.data.find((l: { id: string }) => l.id === id) as { label: string; link: string };
      expect(link('google')).toMatchObject({ label: 'Google Calendar', link: expect.stringContaining('calendar.google.com') });
      expect(link('ics').link).toMatch(/^data:text\/calendar;charset=utf-8,/);
      expect(decodeURIComponent(link('ics').link.slice(link('ics').link.indexOf(',') + 1))).toContain(`UID:${b.uid}@gatehouse`);
    });
    it.skipIf(!available)('ICS feeds are checked, saved, listed and disconnected as stored records', async () => {
      const token = await mint(server, w, w.teamAdmin, ['APPS_READ', 'APPS_WRITE']);
      const url = `webcal://calendar.example.com/${uniq()}.ics`;
      const check = await server.api('GET', `/v2/calendars/ics-feed/check?url=${encodeURIComponent(url)}`, token);
      expect(check.body.data).toEqual({ url: url.replace('webcal://', 'https://'), valid: true, saved: false });
      const insecure = await server.api('GET', `/v2/calendars/ics-feed/check?url=${encodeURIComponent('http://calendar.example.com/a.ics')}`, token);
      expect(insecure.body.data).toMatchObject({ valid: false, saved: false });
      const saved = await server.api('POST', '/v2/calendars/ics-feed/save', token, { urls: [url] });
      expect(saved.status).toBe(201);
      // The platform's credential of the feed, and the feed in Gatehouse's form.
      const feedId = saved.body.data.id;
      expect(saved.body.data).toEqual({
        id: feedId, type: 'ics-feed_calendar', userId: Number(w.teamAdmin.id), teamId: null, appId: 'ics-feed', invalid: false,
        connections: [{ id: feedId, app: 'ics-feed', category: 'calendar', account: url.replace('webcal://', 'https://'), name: 'calendar.example.com', readOnly: true, createdAt: expect.any(String) }],
      });
      expect((await server.api('POST', '/v2/calendars/ics-feed/save', token, { urls: [url] })).status).toBe(409);
      expect((await server.api('GET', `/v2/calendars/ics-feed/check?url=${encodeURIComponent(url)}`, token)).body.data.saved).toBe(true);
      const list = await server.api('GET', '/v2/calendars', token);
      expect(list.body.data.connections.map((c: { id: number }) => c.id)).toContain(feedId);
      expect(list.body.data.connectedCalendars.map((c: { credentialId: number }) => c.credentialId)).toContain(feedId);
      const gone = await server.api('POST', '/v2/calendars/ics-feed/disconnect', token, { id: feedId });
      expect(gone.body.data).toEqual({ id: feedId, type: 'ics-feed_calendar', userId: Number(w.teamAdmin.id), teamId: null, appId: 'ics-feed', invalid: false, deleted: true });
      expect((await server.api('POST', '/v2/calendars/ics-feed/disconnect', token, { id: feedId })).status).toBe(404);
    });
  });

  describe('verified resources', () => {
    it.skipIf(!available)('a code goes to the log, is stored only hashed, fails when wrong and works once (docs/rules.md#scope-registry)', async () => {
      const token = await mint(server, w, w.owner, ['VERIFIED_RESOURCES_WRITE', 'VERIFIED_RESOURCES_READ']);
      const email = `verify-${uniq()}@example.com`;
      const requested = await server.api('POST', '/v2/verified-resources/emails/verification-code/request', token, { email });
      expect(requested.body.data).toMatchObject({ email, codeSent: true, verified: false });
      const line = server.logs.find((l) => l.includes(`verification code for ${email}`));
      const code = /is (\d{6})/.exec(line ?? '')?.[1];
      expect(code).toMatch(/^\d{6}$/);
      const row = (await server.services.stores.verifiedResources.find({ userId: w.owner.id }, 'email', email))!;
      expect(row.codeHash).not.toContain(code!);
      expect(JSON.stringify(row)).not.toContain(`"${code}"`);

      const wrong = String((Number(code) + 1) % 1_000_000).padStart(6, '0');
      const bad = await server.api('POST', '/v2/verified-resources/emails/verification-code/verify', token, { email, code: wrong });
      expect(bad.status).toBe(400);
      expect(bad.body.error.message).toBe('code: is wrong');
      const ok = await server.api('POST', '/v2/verified-resources/emails/verification-code/verify', token, { email, code });
      expect(ok.body.data).toMatchObject({ email, verified: true });
      const list = await server.api('GET', '/v2/verified-resources/emails', token);
      expect(list.body.data.map((e: { email: string }) => e.email)).toContain(email);
      // Another user's list does not show it.
      const other = await server.api('GET', '/v2/verified-resources/emails', await mint(server, w, w.member, ['VERIFIED_RESOURCES_READ']));
      expect(other.body.data.map((e: { email: string }) => e.email)).not.toContain(email);
    });

    it.skipIf(!available)('five wrong codes use up the code', async () => {
      const phoneNumber = '+15550001234';
      const code = await f.pendingCode({ teamId: w.team.id }, 'phone', phoneNumber);
      const token = await mint(server, w, w.teamAdmin, ['TEAM_VERIFIED_RESOURCES_WRITE']);
      const path = `/v2/teams/${w.team.id}/verified-resources/phones/verification-code/verify`;
      const wrong = code === '000000' ? '111111' : '000000';
      for (let i = 0; i < 5; i++) expect((await server.api('POST', path, token, { phoneNumber, code: wrong })).body.error.message).toBe('code: is wrong');
      const locked = await server.api('POST', path, token, { phoneNumber, code });
      expect(locked.body.error.message).toBe('code: too many wrong attempts; request a new one');
    });
  });

  describe('memberships and teams', () => {
    it.skipIf(!available)('only owners grant the owner role, and the last owner cannot leave', async () => {
      const team = await (await import('../../src/services/teams/teams.ts')).createTeam(server.services, { name: 'Owners', ownerId: w.owner.id });
      await addMember(server.services, { teamId: team.id }, w.teamAdmin.id, 'admin');
      const admin = await mint(server, w, w.teamAdmin, ['TEAM_MEMBERSHIP_WRITE', 'TEAM_MEMBERSHIP_READ']);
      const owner = await mint(server, w, w.owner, ['TEAM_MEMBERSHIP_WRITE', 'TEAM_MEMBERSHIP_READ']);
      const grant = await server.api('POST', `/v2/teams/${team.id}/memberships`, admin, { email: w.member.email, role: 'owner' });
      expect(grant.status).toBe(403);
      expect(grant.body.error.code).toBe('forbidden');
      const added = await server.api('POST', `/v2/teams/${team.id}/memberships`, admin, { email: w.member.email, role: 'member' });
      expect(added.status).toBe(201);
      // docs/rules.md#membership-invitations: an invitation, which becomes the membership when the invitee accepts.
      expect(added.body.data).toMatchObject({ state: 'invited', accepted: false, userId: null, role: 'MEMBER', teamId: Number(team.id) });
      expect((await server.api('POST', `/v2/teams/${team.id}/memberships`, admin, { email: w.member.email, role: 'member' })).status).toBe(409);
      await acceptInvitation(server.services, w.member, String(added.body.data.id));
      expect((await server.api('POST', `/v2/teams/${team.id}/memberships`, admin, { userId: w.member.id, role: 'member' })).status).toBe(409);

      const members = await server.api('GET', `/v2/teams/${team.id}/memberships`, owner);
      const ownerMembership = members.body.data.find((m: { role: string }) => m.role === 'OWNER');
      const demote = await server.api('PATCH', `/v2/teams/${team.id}/memberships/${ownerMembership.id}`, owner, { role: 'admin' });
      expect(demote.status).toBe(409);
      expect(demote.body.error.message).toMatch(/at least one owner/);
      expect((await server.api('DELETE', `/v2/teams/${team.id}/memberships/${ownerMembership.id}`, owner)).status).toBe(409);
      expect((await server.api('PATCH', `/v2/teams/${team.id}/memberships/${added.body.data.id}`, owner, { role: 'owner' })).status).toBe(200);
      expect((await server.api('PATCH', `/v2/teams/${team.id}/memberships/${ownerMembership.id}`, owner, { role: 'admin' })).status).toBe(200);
    });

    it.skipIf(!available)('two owners demoting each other at once leave one owner: the check and the write share the team lock', async () => {
      const team = await (await import('../../src/services/teams/teams.ts')).createTeam(server.services, { name: 'Two owners', ownerId: w.owner.id });
      await addMember(server.services, { teamId: team.id }, w.member.id, 'owner');
      const ownerToken = await mint(server, w, w.owner, ['TEAM_MEMBERSHIP_WRITE', 'TEAM_MEMBERSHIP_READ']);
      const memberToken = await mint(server, w, w.member, ['TEAM_MEMBERSHIP_WRITE', 'TEAM_MEMBERSHIP_READ']);
      const members = (await server.api('GET', `/v2/teams/${team.id}/memberships`, ownerToken)).body.data as Array<{ id: number; userId: number }>;
      const of = (userId: string) => members.find((m) => m.userId === Number(userId))!.id;
      const results = await Promise.all([
        server.api('PATCH', `/v2/teams/${team.id}/memberships/${of(w.member.id)}`, ownerToken, { role: 'admin' }),
        server.api('PATCH', `/v2/teams/${team.id}/memberships/${of(w.owner.id)}`, memberToken, { role: 'admin' }),
      ]);
      // The loser is refused either by the owner check (409) or, when the winner's demotion
      // committed before its guard read its roles, for no longer being an owner (403).
      const statuses = results.map((r) => r.status).sort();
      expect(statuses[0]).toBe(200);
      expect([403, 409]).toContain(statuses[1]);
      expect(await server.services.stores.teams.countOwners({ teamId: team.id })).toBe(1);
    });

    it.skipIf(!available)('a team made through the API is audited as team.created with the token\'s application (docs/rules.md#audit-events), and is deleted by its owner only, and is gone afterwards', async () => {
      const created = await server.api('POST', '/v2/teams', await mint(server, w, w.member, ['TEAM_PROFILE_WRITE']), { name: 'Side project' });
      expect(created.status).toBe(201);
      const teamId = created.body.data.id as string;
      const audited = await auditEvents(server, { userId: w.member.id, type: 'team.created' });
      expect(audited.filter((e) => e.data?.teamId === String(teamId)).map((e) => [e.actorId, e.clientId])).toEqual([[w.member.id, w.client.clientId]]);
      await addMember(server.services, { teamId: String(teamId) }, w.teamAdmin.id, 'admin');
      const byAdmin = await server.api('DELETE', `/v2/teams/${teamId}`, await mint(server, w, w.teamAdmin, ['TEAM_PROFILE_WRITE']));
      expect(byAdmin.status).toBe(403);
      const byOwner = await server.api('DELETE', `/v2/teams/${teamId}`, await mint(server, w, w.member, ['TEAM_PROFILE_WRITE']));
      // The platform answers the deleted team; Gatehouse adds that it is gone.
      expect(byOwner.body.data).toEqual({ ...created.body.data, deleted: true });
      expect(byOwner.body.data).toMatchObject({ id: teamId, name: 'Side project', isOrganization: false });
      expect((await server.api('GET', `/v2/teams/${teamId}`, await mint(server, w, w.member, ['TEAM_PROFILE_READ']))).status).toBe(404);
    });

    it.skipIf(!available)("GET /v2/me reports the user's organization and default schedule", async () => {
      const token = await mint(server, w, w.orgAdmin, ['PROFILE_READ', 'SCHEDULE_WRITE']);
      const me = (await server.api('GET', '/v2/me', token)).body.data;
      expect(me.organizationId).toBe(Number(w.org.id));
      expect(me.organization).toEqual({ id: Number(w.org.id), isPlatform: false });
      const schedule = await server.api('POST', '/v2/schedules', token, { name: 'Main', timeZone: 'Europe/Berlin', availability: [{ days: ['Monday'], startTime: '08:00', endTime: '12:00' }] });
      expect(schedule.body.data.isDefault).toBe(true);
      expect((await server.api('GET', '/v2/me', token)).body.data.defaultScheduleId).toBe(schedule.body.data.id);
      const backwards = await server.api('POST', '/v2/schedules', token, { name: 'Odd', timeZone: 'UTC', availability: [{ days: ['Monday'], startTime: '17:00', endTime: '09:00' }] });
      expect(backwards.body.error.message).toBe('availability.0.endTime: must be later than startTime');
    });

    it.skipIf(!available)("lists never show another user's or team's resources", async () => {
      const mine = await f.eventType({ userId: w.owner.id });
      const theirs = await f.eventType({ userId: w.outsider.id });
      const list = await server.api('GET', '/v2/event-types?limit=100', await mint(server, w, w.owner, ['EVENT_TYPE_READ']));
      const ids = list.body.data.map((e: { id: string }) => e.id);
      expect(ids).toContain(Number(mine.id));
      expect(ids).not.toContain(Number(theirs.id));
      const otherTeamEt = await f.eventType({ teamId: w.otherTeam.id });
      const orgList = await server.api('GET', `/v2/organizations/${w.org.id}/event-types?limit=100`, await mint(server, w, w.owner, ['ORG_EVENT_TYPE_READ']));
      expect(orgList.status).toBe(200);
      const orgIds = orgList.body.data.map((e: { id: number }) => e.id);
      expect(orgIds).toContain(Number(mine.id));
      expect(orgIds).not.toContain(Number(otherTeamEt.id));
    });
  });

  describe('input validation (docs/rules.md#bad-input: never a 500)', () => {
    it.skipIf(!available)('names the field at fault', async () => {
      const token = await mint(server, w, w.owner, ['EVENT_TYPE_WRITE', 'WEBHOOK_WRITE', 'BOOKING_READ', 'PROFILE_WRITE']);
      const cases: Array<[string, string, unknown, string]> = [
        ['POST', '/v2/event-types', { slug: 'x', lengthInMinutes: 30 }, 'title: is required'],
        ['POST', '/v2/event-types', { title: 'T', slug: 'x', lengthInMinutes: 'long' }, 'lengthInMinutes: must be integer'],
        ['POST', '/v2/event-types', { title: 'T', slug: 'Not A Slug', lengthInMinutes: 30 }, 'slug: must match pattern'],
        ['POST', '/v2/webhooks', { subscriberUrl: 'http://example.com/hook', triggers: ['BOOKING_CREATED'] }, 'subscriberUrl: must use https'],
        ['POST', '/v2/webhooks', { subscriberUrl: 'https://example.com/hook', triggers: ['NOPE'] }, 'triggers.0: must be equal to one of the allowed values'],
        ['GET', '/v2/bookings?limit=500', undefined, 'limit: must be <= 100'],
        ['PATCH', '/v2/me', { name: 'Ada\nadmin' }, 'name: must be one line of text, without control characters'],
        ['GET', '/v2/bookings?status=unknown', undefined, 'status: "unknown" is not a status'],
      ];
      for (const [method, path, body, message] of cases) {
        const res = await server.api(method, path, token, body);
        expect(res.status, `${method} ${path}`).toBe(400);
        expect(res.body.error.code).toBe('validation_error');
        expect(res.body.error.message.startsWith(message), `${res.body.error.message} should start with ${message}`).toBe(true);
      }
    });

    it.skipIf(!available)('refuses a whole number spelled to read as infinite (1e999, Infinity): 400 naming the field, nothing written', async () => {
      const token = await mint(server, w, w.owner, ['EVENT_TYPE_READ', 'EVENT_TYPE_WRITE', 'BOOKING_READ']);
      for (const query of ['limit=1e999', 'offset=1e999', 'limit=Infinity', 'limit=-1e999']) {
        for (const path of ['/v2/event-types', '/v2/bookings']) {
          const res = await server.api('GET', `${path}?${query}`, token);
          expect(res.status, `${path}?${query}`).toBe(400);
          expect(res.body.error.code).toBe('validation_error');
          expect(res.body.error.message).toMatch(new RegExp(`^${query.split('=')[0]}: must be a whole number from`));
        }
      }
      const created = await server.api('POST', '/v2/event-types', token, { title: 'Finite', slug: 'finite-only', lengthInMinutes: 30 });
      expect(created.status).toBe(201);
      const refused = await server.api('POST', '/v2/event-types', token, { title: 'Endless', slug: 'endless', lengthInMinutes: '1e999' });
      expect(refused.status).toBe(400);
      expect(refused.body.error.message).toMatch(/^lengthInMinutes: must be a whole number from 1 to/);
      const patched = await server.api('PATCH', `/v2/event-types/${created.body.data.id}`, token, { minimumBookingNotice: 'Infinity' });
      expect(patched.status).toBe(400);
      expect(patched.body.error.message).toMatch(/^minimumBookingNotice: must be a whole number from 0 to/);
      // Nothing was written, so the listing still answers.
      expect((await server.services.stores.api.eventTypes.list({ userId: w.owner.id }, 1000, 0)).map((e) => e.slug)).not.toContain('endless');
      const list = await server.api('GET', '/v2/event-types?limit=100', token);
      expect(list.status).toBe(200);
      expect(list.body.data.find((e: { id: string }) => e.id === created.body.data.id).minimumBookingNotice).toBe(created.body.data.minimumBookingNotice);
    });

    it.skipIf(!available)('a body in another format, or none at all, is told to be JSON; broken JSON is told so', async () => {
      const token = await mint(server, w, w.owner, ['PROFILE_WRITE']);
      const send = (headers: Record<string, string>, body: string | Blob) =>
        fetch(`${server.url}/v2/me`, { method: 'PATCH', headers: { authorization: `Bearer ${token}`, ...headers }, body });
      const formats: Array<Record<string, string>> = [{ 'content-type': 'text/plain' }, { 'content-type': 'application/x-www-form-urlencoded' }, {}];
      for (const headers of formats) {
        // A Blob without a type, so that fetch adds no Content-Type of its own to the last case.
        const res = await send(headers, new Blob(['name=Ada']));
        expect(res.status, JSON.stringify(headers)).toBe(415);
        expect(await res.json()).toEqual({ status: 'error', timestamp: expect.any(String), path: expect.any(String), error: { code: 'bad_request', message: 'the request body must be application/json: send it with that Content-Type' } });
      }
      const broken = await send({ 'content-type': 'application/json' }, '{"name":');
      expect(broken.status).toBe(400);
      expect(((await broken.json()) as { error: { message: string } }).error.message).toMatch(/^the request body is not valid JSON/);
      const empty = await send({ 'content-type': 'application/json' }, '');
      expect(empty.status).toBe(400);
      expect(((await empty.json()) as { error: { message: string } }).error.message).toMatch(/^the request body is empty but its Content-Type says JSON/);
      // A route without a body, called with an empty one and the Content-Type an HTTP client adds.
      const writer = await mint(server, w, w.owner, ['EVENT_TYPE_WRITE']);
      const made = await server.api('POST', '/v2/event-types', writer, { title: 'Short-lived', slug: 'short-lived', lengthInMinutes: 15 });
      const removed = await fetch(`${server.url}/v2/event-types/${made.body.data.id}`, { method: 'DELETE', headers: { authorization: `Bearer ${writer}`, 'content-type': 'text/plain' }, body: '' });
      expect(removed.status).toBeLessThan(300);
      // Cal.com's own MCP server sends Content-Type: application/json with every request, an empty DELETE too.
      const second = await server.api('POST', '/v2/event-types', writer, { title: 'Short-lived too', slug: 'short-lived-too', lengthInMinutes: 15 });
      const deleted = await fetch(`${server.url}/v2/event-types/${second.body.data.id}`, { method: 'DELETE', headers: { authorization: `Bearer ${writer}`, 'content-type': 'application/json', 'cal-api-version': '2024-06-14' }, body: '' });
      expect(deleted.status, await deleted.clone().text()).toBe(200);
      expect(((await deleted.json()) as { status: string }).status).toBe('success');
      const reader = await mint(server, w, w.owner, ['EVENT_TYPE_READ']);
      expect((await server.api('GET', `/v2/event-types/${second.body.data.id}`, reader)).status).toBe(404);
      const poisoned = await send({ 'content-type': 'application/json' }, '{"__proto__":{"admin":true}}');
      expect(poisoned.status).toBe(400);
      expect(((await poisoned.json()) as { error: { message: string } }).error.message).toMatch(/holds a __proto__ key or a constructor\.prototype, which are refused/);
    });

    it.skipIf(!available)('a number field of a routing form is answered with a number, kept as one; text is refused for it', async () => {
      const token = await mint(server, w, w.owner, ['TEAM_ROUTING_FORM_READ', 'TEAM_ROUTING_FORM_WRITE']);
      const form = await server.api('POST', `/v2/teams/${w.team.id}/routing-forms`, token, {
        name: 'Sizing',
        fields: [{ id: 'seats', label: 'Seats', type: 'number', required: true }, { id: 'note', label: 'Note', type: 'text' }],
      });
      expect(form.status).toBe(201);
      const responses = `/v2/teams/${w.team.id}/routing-forms/${form.body.data.id}/responses`;
      const answered = await server.api('POST', responses, token, { response: { seats: 42, note: '7' } });
      expect(answered.status, JSON.stringify(answered.body)).toBe(201);
      expect(answered.body.data.response).toEqual({ seats: 42, note: '7' });
      const text = await server.api('POST', responses, token, { response: { seats: 'forty-two' } });
      expect(text.status).toBe(400);
      expect(text.body.error.message).toBe('response.seats: must be a valid number');
    });

    it.skipIf(!available)('answers malformed bodies on every route with a 4xx envelope', async () => {
      const token = await mint(server, w, w.owner, null);
      const ctx = { server, w, f, actor: w.owner, teamId: w.team.id, orgId: w.org.id };
      const bodies: unknown[] = [[], 'text', 42, { unexpected: true }, { name: 123, title: [], email: {}, start: 'yesterday', response: 'x', urls: 'x', guests: [1] }];
      for (const r of apiRoutes.filter((x) => x.method !== 'GET' && !x.id.startsWith('orgs.'))) {
        const req = await examples[r.handler]!(ctx);
        const path = fillPath(r.path, { teamId: w.team.id, orgId: w.org.id, ...req.params });
        // Broken JSON first: a later body may delete the resource.
        const broken = await fetch(`${server.url}${path}`, { method: r.method, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: '{"unterminated' });
        expect(broken.status, `${r.method} ${r.path} with broken JSON`).toBe(400);
        for (const body of bodies) {
          const res = await server.api(r.method, path, token, body);
          expect(res.status, `${r.method} ${r.path} with ${JSON.stringify(body)}: ${JSON.stringify(res.body)}`).toBeLessThan(500);
          if (res.status >= 400) expect(res.body.status).toBe('error');
        }
      }
    });
  });
});

describe.each(backends)('queries per guarded request on $name', ({ name, available }) => {
  let server: TestServer;
  let w: World;
  const counter = { n: 0 };
  beforeAll(async () => {
    if (!available) return;
    server = await startCountingServer(name, counter);
    w = await buildWorld(server);
  });
  afterAll(async () => server?.close());

  async function queries(path: string, token: string | undefined) {
    counter.n = 0;
    const res = await server.api('GET', path, token);
    return { status: res.status, n: counter.n };
  }

  it.skipIf(!available)('a guarded GET costs one query for token, scope and membership, plus the route’s own', async () => {
    const t = await mint(server, w, w.orgAdmin, ALL_SCOPES);
    expect(await queries('/v2/me', t)).toEqual({ status: 200, n: 2 });
    expect(await queries(`/v2/teams/${w.team.id}/event-types`, t)).toEqual({ status: 200, n: 2 });
    expect(await queries(`/v2/organizations/${w.org.id}/teams/${w.team.id}/bookings`, t)).toEqual({ status: 200, n: 2 });
    expect(await queries(`/v2/organizations/${w.org.id}/bookings`, t)).toEqual({ status: 200, n: 2 });
    const viaOrgScope = await mint(server, w, w.orgAdmin, ['ORG_EVENT_TYPE_READ']);
    expect(await queries(`/v2/teams/${w.team.id}/event-types`, viaOrgScope)).toEqual({ status: 200, n: 2 });
  });

  it.skipIf(!available)('a refused request costs at most that one query, and none for a missing or malformed token', async () => {
    const noScope = await mint(server, w, w.owner, ['PROFILE_READ']);
    expect(await queries(`/v2/teams/${w.team.id}/event-types`, noScope)).toEqual({ status: 403, n: 1 });
    expect(await queries(`/v2/teams/${w.team.id}/event-types`, await mint(server, w, w.outsider, ['TEAM_EVENT_TYPE_READ']))).toEqual({ status: 403, n: 1 });
    expect(await queries(`/v2/teams/${w.team.id}/event-types`, undefined)).toEqual({ status: 401, n: 0 });
    expect(await queries(`/v2/teams/${w.team.id}/event-types`, 'gat_malformed')).toEqual({ status: 401, n: 0 });
  });
});

// What a list or a lookup costs must not grow with what it holds: the teams of an event-type
// page, the attendees of a booking, the connections of an account.
describe.each(backends)('queries per request, whatever it holds, on $name', ({ name, available }) => {
  let server: TestServer;
  let w: World;
  let f: ReturnType<typeof fixtures>;
  const counter: StatementCounter = { n: 0 };
  beforeAll(async () => {
    if (!available) return;
    server = await startCountingServer(name, counter);
    w = await buildWorld(server);
    f = fixtures(server);
  });
  afterAll(async () => server?.close());

  async function queries(method: string, path: string, token: string | undefined, body?: unknown) {
    counter.n = 0;
    const res = await server.api(method, path, token, body);
    return { status: res.status, length: Array.isArray(res.body?.data) ? res.body.data.length : undefined, n: counter.n };
  }

  it.skipIf(!available)("an organization's event-type lists read the teams and hosts of the page at once, not team by team", async () => {
    const s = server.services;
    const boss = await quickUser(server, 'Bea Boss');
    const org = await createOrganization(s, { name: `Costs ${uniq()}`, ownerId: boss.id });
    const token = await mint(server, w, boss, ALL_SCOPES);
    const addTeam = async () => {
      const team = await createTeam(s, { name: `Costs ${uniq()}`, ownerId: boss.id, organizationId: org.id });
      await addMember(s, { teamId: team.id }, (await quickUser(server, 'Hal Host')).id, 'member');
      await f.eventType({ teamId: team.id });
    };
    const lists = [`/v2/organizations/${org.id}/event-types?limit=100`, `/v2/organizations/${org.id}/teams/event-types?limit=100`];
    await addTeam();
    const one = [];
    for (const path of lists) one.push(await queries('GET', path, token));
    // Token, scope and membership; the page; its teams; their hosts; the hosts' accounts.
    expect(one).toEqual([{ status: 200, length: 1, n: 5 }, { status: 200, length: 1, n: 5 }]);
    await addTeam();
    await addTeam();
    for (const [i, path] of lists.entries()) expect(await queries('GET', path, token)).toEqual({ ...one[i], length: 3 });
  });

  it.skipIf(!available)("a booking's attendees take their ids in one statement: ten guests cost what one does, when booked and when added", async () => {
    const host = await quickUser(server, 'Hattie Host');
    const token = await mint(server, w, host, ['BOOKING_READ', 'BOOKING_WRITE']);
    const et = await f.eventType({ userId: host.id });
    const attendee = { name: 'Ann Attendee', email: 'ann@example.com', timeZone: 'Europe/Paris' };
    const guests = (n: number) => Array.from({ length: n }, () => `g-${uniq().toLowerCase()}@example.com`);
    const book = async (n: number) => {
      const q = await queries('POST', '/v2/bookings', undefined, { eventTypeId: et.id, start: new Date(futureStart(server)).toISOString(), attendee, guests: guests(n) });
      expect(q.status).toBe(201);
      return q.n;
    };
    expect(await book(10)).toBe(await book(1));
    const add = async (n: number) => {
      const b = await f.booking({ hostId: host.id });
      const q = await queries('POST', `/v2/bookings/${b.uid}/guests`, token, { guests: guests(n) });
      expect(q.status).toBe(200);
      expect((await server.api('GET', `/v2/bookings/${b.uid}/attendees`, token)).body.data).toHaveLength(1 + n);
      return q.n;
    };
    expect(await add(9)).toBe(await add(1));
  });

  it.skipIf(!available)("an event type's slots cost the same statements for one host as for five with their bookings and time off (docs/integrating.md#slots)", async () => {
    const owner = await quickUser(server, 'Rita Round-Robin');
    const team = await createTeam(server.services, { name: `Slots ${uniq()}`, ownerId: owner.id });
    const et = await f.eventType({ teamId: team.id }, { roundRobin: true });
    const path = () => {
      const start = futureStart(server);
      return `/v2/slots?eventTypeId=${et.id}&start=${new Date(start).toISOString()}&end=${new Date(start + 31 * 86_400_000).toISOString()}`;
    };
    const one = await queries('GET', path(), undefined);
    expect(one.status).toBe(200);
    // The event type; its hosts with their schedules; their bookings; their time off; the event type's holds.
    expect(one.n).toBe(5);
    for (let i = 0; i < 4; i++) {
      const host = await quickUser(server, 'Hal Host');
      await addMember(server.services, { teamId: team.id }, host.id, 'member');
      await f.schedule({ userId: host.id }).then((schedule) => server.services.stores.api.schedules.setDefault(host.id, schedule.id, false));
      for (let b = 0; b < 5; b++) await f.booking({ hostId: host.id });
      await f.ooo(host.id);
    }
    expect(await queries('GET', path(), undefined)).toEqual(one);
  });

  it.skipIf(!available)("a connection is looked up by its id, not found among all the owner's: one calendar or thirty cost the same statements and rows", async () => {
    const cost = async (others: number) => {
      const user = await quickUser(server, 'Cal Connected');
      const token = await mint(server, w, user, ['APPS_READ', 'APPS_WRITE']);
      const target = await f.app({ userId: user.id }, 'google-calendar');
      for (let i = 0; i < others; i++) await f.app({ userId: user.id }, i % 2 === 0 ? 'google-calendar' : 'apple-calendar');
      const named = { integration: 'google_calendar', externalId: target.account, credentialId: Number(target.id) };
      const query = `integration=google_calendar&externalId=${encodeURIComponent(target.account)}&credentialId=${target.id}`;
      const requests: [string, string, unknown][] = [
        ['POST', '/v2/selected-calendars', named],
        ['DELETE', `/v2/selected-calendars?${query}`, undefined],
        ['PUT', '/v2/destination-calendars', { integration: 'google_calendar', externalId: target.account }],
        ['POST', '/v2/calendars/google/disconnect', { id: Number(target.id) }],
      ];
      const costs = [];
      for (const [method, path, body] of requests) {
        counter.rows = 0;
        const { status, n } = await queries(method, path, token, body);
        costs.push({ status, n, rows: counter.rows });
      }
      delete counter.rows;
      return costs;
    };
    const one = await cost(0);
    expect(one.map((c) => c.status)).toEqual([201, 200, 200, 200]);
    expect(await cost(29)).toEqual(one);
  });
});
