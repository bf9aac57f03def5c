// An organization member's bookings (GET /v2/organizations/:orgId/users/:userId/bookings,
// ORG_BOOKING_READ) as Cal.com's own MCP server asks for them (get_org_user_bookings): its
// headers, `status` repeated as it sends an array, take and skip; the answer in the platform's
// booking list shape. What the service decides (which bookings, who is a member) is tested in
// process (test/services/platform/bookings.test.ts); scope and role by the access suites.
import { describe, expect, it } from 'vitest';
import { createTeam } from '../../src/services/teams/teams.ts';
import { backends } from '../helpers/backends.ts';
import { loadReference, referenceAvailable } from '../helpers/calcom-reference.ts';
import type { TestServer } from '../helpers/server.ts';
import { fixtures, futureStart, mint, type World, useWorld } from './fixtures.ts';

/** What Cal.com's MCP server sends with every request (apps/mcp-server's API client), a GET included. */
const CALCOM_HEADERS = { 'cal-api-version': '2024-08-13', 'content-type': 'application/json' };

/** Cal.com documents no answer for this operation: its bookings are those of GET /v2/bookings, so that one's schema checks them. */
function documentedMismatch(status: number, body: unknown): string | null {
  if (!referenceAvailable) return null;
  const { operations, checkResponse } = loadReference();
  return checkResponse(operations.find((o) => o.method === 'GET' && o.path === '/v2/bookings')!, status, body);
}

describe.each(backends)("an organization member's bookings on $name", ({ name, available }) => {
  let server: TestServer;
  let w: World;
  let f: ReturnType<typeof fixtures>;
  useWorld(name, available, (started) => ({ server, w, f } = started));

  const get = (path: string, token: string) => server.api('GET', path, token, undefined, CALCOM_HEADERS);

  it.skipIf(!available)("Cal.com's get_org_user_bookings (status repeated, take, skip, sortStart=asc) → 200, the member's upcoming and past bookings in the organization, earliest first, with pagination", async () => {
    const { user } = await f.membership({ organizationId: w.org.id });
    // Of an event type, as every booking the API makes is.
    const eventTypeId = (await f.eventType({ userId: user.id })).id;
    const past = await f.booking({ hostId: user.id, eventTypeId, start: server.clock() - 3 * 3600_000 });
    const later = await f.booking({ hostId: user.id, eventTypeId, start: futureStart(server) + 48 * 3600_000 });
    const soon = await f.booking({ hostId: user.id, eventTypeId });
    const orgTeam = await createTeam(server.services, { name: 'Support', ownerId: user.id, organizationId: w.org.id });
    const ofTeam = await f.booking({ hostId: user.id, teamId: orgTeam.id, eventTypeId: (await f.eventType({ teamId: orgTeam.id })).id, start: futureStart(server) + 72 * 3600_000 });
    await f.booking({ hostId: user.id, status: 'cancelled' });
    // Theirs, but in a team of another organization: not this organization's to read.
    const rivalTeam = await createTeam(server.services, { name: 'Elsewhere', ownerId: user.id, organizationId: w.otherOrg.id });
    await f.booking({ hostId: user.id, teamId: rivalTeam.id });
    await f.booking({ hostId: w.orgAdmin.id });
    const token = await mint(server, w, w.orgAdmin, ['ORG_BOOKING_READ']);
    const path = `/v2/organizations/${w.org.id}/users/${user.id}/bookings`;

    const res = await get(`${path}?status=upcoming&status=past&take=3&skip=0&sortStart=asc`, token);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data.map((b: { uid: string }) => b.uid)).toEqual([past.uid, soon.uid, later.uid]);
    expect(res.body.data[0]).toMatchObject({ hosts: [{ id: Number(user.id), email: user.email }], status: 'accepted' });
    expect(res.body.pagination).toMatchObject({ totalItems: 4, returnedItems: 3, itemsPerPage: 3, currentPage: 1, totalPages: 2, hasNextPage: true, hasPreviousPage: false });
    expect(documentedMismatch(res.status, res.body)).toBeNull();
    const next = await get(`${path}?status=upcoming,past&take=3&skip=3`, token);
    expect(next.body.data.map((b: { uid: string }) => b.uid)).toEqual([ofTeam.uid]);
    expect((await get(`${path}?status=cancelled`, token)).body.data).toHaveLength(1);
  });

  it.skipIf(!available)('a filter Cal.com documents and Gatehouse does not take → 400 naming it, never a list that ignored it; so is sortStart=desc', async () => {
    const { user } = await f.membership({ organizationId: w.org.id });
    const token = await mint(server, w, w.orgAdmin, ['ORG_BOOKING_READ']);
    const path = `/v2/organizations/${w.org.id}/users/${user.id}/bookings`;
    for (const [query, field] of [
      ['attendeeEmail=ann%40example.com', 'attendeeEmail'],
      ['status=upcoming&bookingUid=abc', 'bookingUid'],
      ['eventTypeIds=100,200', 'eventTypeIds'],
      ['sortUpdatedAt=desc', 'sortUpdatedAt'],
      ['afterCreatedAt=2025-03-07T10:00:00.000Z', 'afterCreatedAt'],
    ] as const) {
      const res = await get(`${path}?${query}`, token);
      expect(res.status, query).toBe(400);
      expect(res.body.error, query).toEqual({ code: 'validation_error', message: `${field}: is not supported: a member's bookings are filtered by status, afterStart, beforeEnd, sortStart=asc, take and skip only` });
    }
    const desc = await get(`${path}?sortStart=desc`, token);
    expect(desc.status).toBe(400);
    expect(desc.body.error.message).toBe('sortStart: only asc is supported: the bookings come by start time, earliest first');
    const badStatus = await get(`${path}?status=upcoming&status=soon`, token);
    expect(badStatus.status).toBe(400);
    expect(badStatus.body.error.message).toMatch(/^status: "soon" is not a status/);
  });

  it.skipIf(!available)('a user who is not an accepted member of the organization → 404 as an unknown user, whether invited, elsewhere or nobody', async () => {
    const token = await mint(server, w, w.owner, ['ORG_BOOKING_READ']);
    // The world's invitee is invited to the organization by id; the outsider owns another one.
    for (const userId of [w.invitee.id, w.outsider.id, '999999']) {
      await f.booking({ hostId: userId === '999999' ? w.outsider.id : userId });
      const res = await get(`/v2/organizations/${w.org.id}/users/${userId}/bookings`, token);
      expect(res.status, userId).toBe(404);
      expect(res.body.error, userId).toEqual({ code: 'not_found', message: 'no such user in this organization' });
    }
  });

  it.skipIf(!available)('the personal GET /v2/bookings takes status repeated too, as Cal.com’s clients send an array', async () => {
    const { user } = await f.membership({ organizationId: w.org.id });
    const past = await f.booking({ hostId: user.id, start: server.clock() - 3 * 3600_000 });
    const soon = await f.booking({ hostId: user.id });
    await f.booking({ hostId: user.id, status: 'cancelled' });
    const res = await get('/v2/bookings?status=upcoming&status=past', await mint(server, w, user, ['BOOKING_READ']));
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data.map((b: { uid: string }) => b.uid)).toEqual([past.uid, soon.uid]);
  });
});
