// The platform API measured against the platform it answers like (docs/rules.md#scope-registry): each
// operation that Cal.com API v2's OAuth documentation ties to a scope is called the platform's way —
// its method and path, its required query parameters and a body built from its OpenAPI file, a
// token holding every scope — and its answer is validated against the file's response schema.
// Each operation lands in one of four outcomes; the figures are recorded in
// calcom-conformance.json, and a run that differs from them fails, so progress is written down
// and a step back is caught. `UPDATE_CONFORMANCE=1` rewrites the record after a change that
// moves an operation forward. Skipped, saying so, without the reference (test/helpers/calcom-reference.ts).
import { readFileSync, writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTeam } from '../../src/services/teams/teams.ts';
import { apiRoutes } from '../../src/platform/route-table.ts';
import { findFreeSlots } from '../../src/platform/slots/service.ts';
import { backends } from '../helpers/backends.ts';
import { loadReference, pathShape, referenceAvailable, referenceDir, type ReferenceOperation } from '../helpers/calcom-reference.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { ALL_SCOPES, buildWorld, fixtures, futureStart, mint, quickUser, randomPhone, uniq, type World } from './fixtures.ts';

type Outcome = 'absent' | 'refused' | 'different' | 'conforms';
type Record_ = Record<Outcome, string[]>;

const recordFile = new URL('./calcom-conformance.json', import.meta.url);
const OUTCOMES: Outcome[] = ['absent', 'refused', 'different', 'conforms'];

if (!referenceAvailable) {
  // eslint-disable-next-line no-console
  console.log(`Cal.com API v2 conformance: skipped, the reference is not at ${referenceDir} (CI has it)`);
}

describe.each(backends)('Cal.com API v2 conformance on $name', ({ name, available }) => {
  const run = available && referenceAvailable;
  let server: TestServer;
  let w: World;
  let f: ReturnType<typeof fixtures>;
  let token: string;
  /** The file's booking fields, one of each kind (loadReference's bookingFieldExamples). */
  let bookingFieldExamples: () => Record<string, unknown>[];

  beforeAll(async () => {
    if (!run) return;
    server = await startTestServer(name);
    w = await buildWorld(server);
    f = fixtures(server);
    token = await mint(server, w, w.owner, ALL_SCOPES);
    // An account in use has a default schedule (its first one), with the week the platform
    // gives one made without availability (Gatehouse stores none): its bookings need slots.
    await server.api('POST', '/v2/schedules', token, { name: 'Working hours', timeZone: 'Europe/Berlin', availability: [{ days: ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday'], startTime: '09:00', endTime: '17:00' }] });
    // A team with a schedule of its own, which the team and organization lists answer among the rest.
    await server.api('POST', `/v2/teams/${w.team.id}/schedules`, token, { name: 'Support hours', timeZone: 'Europe/Berlin' });
    // ... and a calendar connected, which GET /v2/calendars describes (its destination calendar among it).
    await f.app({ userId: w.owner.id }, 'google-calendar');
  });
  afterAll(async () => server?.close());

  /** Real fixtures for the path's parameters, owned by the team, the organization or the caller as the path says. */
  async function pathValues(op: ReferenceOperation): Promise<Record<string, string>> {
    const values: Record<string, string> = {};
    const inTeam = op.path.includes('{teamId}');
    const inOrg = op.path.includes('{orgId}');
    const owner = inTeam ? { teamId: w.team.id } : { userId: w.owner.id };
    for (const [, param] of op.path.matchAll(/\{(\w+)\}/g)) {
      switch (param) {
        // Deleting a team takes one made for the purpose: the world's team serves the rest.
        case 'teamId': values.teamId = op.method === 'DELETE' && op.path.endsWith('{teamId}') ? (await createTeam(server.services, { name: 'Doomed', ownerId: w.owner.id, organizationId: w.org.id })).id : w.team.id; break;
        case 'orgId': values.orgId = w.org.id; break;
        case 'eventTypeId': values.eventTypeId = (await f.eventType(owner)).id; break;
        case 'linkId': values.linkId = (await f.privateLink(values.eventTypeId!)).id; break;
        case 'bookingUid': {
          const pending = /\/(confirm|decline)$/.test(op.path);
          // Only a team booking has another host to go to (the platform reassigns round-robin bookings).
          const ofTeam = inTeam || /\/reassign(\/\{userId\})?$/.test(op.path);
          // Of an event type, as every booking the API makes is (only deleting it leaves a booking without one).
          const eventTypeId = (await f.eventType(ofTeam ? { teamId: w.team.id } : { userId: w.owner.id })).id;
          values.bookingUid = (await f.booking({ hostId: w.owner.id, eventTypeId, ...(ofTeam ? { teamId: w.team.id } : {}), status: pending ? 'pending' : 'accepted' })).uid;
          break;
        }
        case 'scheduleId': values.scheduleId = (await f.schedule(values.userId ? { userId: values.userId } : owner)).id; break;
        case 'webhookId': values.webhookId = (await f.webhook(values.eventTypeId !== undefined ? { eventTypeId: values.eventTypeId } : inOrg ? { organizationId: w.org.id } : { userId: w.owner.id })).id; break;
        case 'membershipId': values.membershipId = (await f.membership(inTeam ? { teamId: w.team.id } : { organizationId: w.org.id })).membership.id; break;
        // The member a booking is handed to is one of its team's; any other path's user is a new member there.
        case 'userId': values.userId = (await f.membership(inTeam || op.path.includes('/reassign/') ? { teamId: w.team.id } : { organizationId: w.org.id })).user.id; break;
        // An absence of the path's user (the caller on /v2/me/ooo) that began a day ago and lasts
        // a century, so the platform's change of its start to a future time (futureStart) keeps
        // it before its end: futureStart counts on across every file a worker runs (isolate:
        // false), and in a whole run it had passed a year ahead.
        case 'oooId': {
          const start = server.clock() - 24 * 3600_000;
          values.oooId = (await f.ooo(values.userId ?? w.owner.id, { start, end: start + 100 * 365 * 24 * 3600_000 })).id;
          break;
        }
        // The booker of the path's booking, its first attendee.
        case 'attendeeId': values.attendeeId = (await server.services.stores.api.bookingAttendees.list(values.bookingUid!))[0]!.id; break;
        // Apple is the one calendar the platform takes credentials for.
        case 'calendar': values.calendar = op.path.endsWith('/credentials') ? 'apple' : 'google'; break;
        // Zoom for its OAuth address (the platform's only apps there); Google Meet, the platform's
        // one app to connect directly, elsewhere: connected, it may be made the default and disconnected.
        case 'app': values.app = op.path.endsWith('/oauth/auth-url') ? 'zoom' : 'google-meet'; break;
        default: values[param] = 'unknown';
      }
    }
    return values;
  }

  /** The start `fill` gave last: an `end` comes after it. */
  let lastStart = 0;

  /** Fields of the platform's requests that must name real things or lie ahead. */
  function fill(name: string): unknown {
    switch (name) {
      case 'start': lastStart = futureStart(server); return new Date(lastStart).toISOString();
      case 'end': return new Date(lastStart + 3600_000).toISOString();
      case 'attendee': return { name: 'Ann Attendee', email: 'ann@example.com', timeZone: 'Europe/Paris', language: 'en' };
      case 'userId': return w.member.id;
      case 'email': return `e-${uniq()}@example.com`;
      case 'slug': return `s-${uniq().toLowerCase()}`;
      case 'timeZone': return 'Europe/Berlin';
      case 'subscriberUrl': return 'https://hooks.example.com/calcom';
      // The file's example of a webhook's triggers names some its own enum lacks (BOOKING_COMPLETED, BOOKING_NO_SHOW).
      case 'triggers': return ['BOOKING_CREATED', 'BOOKING_CANCELLED'];
      case 'expiresAt': return new Date(server.clock() + 7 * 24 * 3600_000).toISOString();
      case 'urls': return ['https://calendar.example.com/feed.ics'];
      // The file's pattern of a phone call's numbers is E.164 wrapped in slashes, which no number matches.
      case 'yourPhoneNumber':
      case 'numberToCall':
        return randomPhone();
      // The file types a phone call's `enabled` as an object, with the default true: the platform takes a boolean.
      case 'enabled': return true;
      // A connect page's return addresses are on the origin of the asking client's redirect URIs (docs/rules.md#connect-pages).
      case 'returnTo': return `${new URL(w.client.redirectUri).origin}/connected`;
      case 'onErrorReturnTo': return `${new URL(w.client.redirectUri).origin}/not-connected`;
      default: return undefined;
    }
  }

  /**
   * Fields that must name real things particular to the operation: a booking names its event
   * type (the platform's schema leaves it optional, its words require it "unless eventTypeSlug
   * and username are provided"), a disconnect a credential the caller has, a new
   * membership a user not yet a member (the world's member is one of the team already),
   * an absence an attendee the booking has, a calendar choice a calendar of the caller's
   * (in the query, for an unselection), and an event type's write every kind of booking field.
   */
  async function operationFixtures(op: ReferenceOperation): Promise<Record<string, unknown>> {
    if (op.method === 'POST' && op.path === '/v2/bookings') return { eventTypeId: (await f.eventType({ userId: w.owner.id })).id };
    // An event type made or changed with a booking field of every kind the file documents, so
    // that its answer shows each field as the platform writes it back.
    if ((op.method === 'POST' || op.method === 'PATCH') && /\/event-types(\/\{eventTypeId\})?$/.test(op.path)) return { bookingFields: bookingFieldExamples() };
    if (op.method === 'POST' && op.path === '/v2/calendars/{calendar}/disconnect') return { id: (await f.app({ userId: w.owner.id }, 'google-calendar')).id };
    // A calendar choice names one of the caller's calendars as GET /v2/calendars lists it; an unselection, one selected.
    if (op.path === '/v2/selected-calendars' || op.path === '/v2/destination-calendars') {
      const calendar = await f.app({ userId: w.owner.id }, 'google-calendar');
      if (op.method === 'DELETE') await server.services.stores.api.connectedApps.setSelected(w.owner.id, calendar.id, true);
      return { integration: 'google_calendar', externalId: calendar.account, ...(op.path === '/v2/selected-calendars' ? { credentialId: Number(calendar.id) } : {}) };
    }
    if (op.method === 'POST' && op.path.endsWith('/memberships')) return { userId: (await quickUser(server)).id };
    // Absent is said of the booking's own attendees: the fixture booking's booker.
    if (op.method === 'POST' && op.path.endsWith('/mark-absent')) return { attendees: [{ email: 'ann@example.com', absent: true }] };
    return {};
  }

  /**
   * docs/rules.md#booking-availability: a booking, or its move, takes a start its event type
   * offers, as a client finds one in GET /v2/slots (the caller's default schedule is whatever
   * the operations before made it).
   */
  async function slotOf(op: ReferenceOperation, params: Record<string, string>, named: Record<string, unknown>): Promise<{ start?: string }> {
    const moving = op.method === 'POST' && op.path === '/v2/bookings/{bookingUid}/reschedule';
    if (!(op.method === 'POST' && op.path === '/v2/bookings') && !moving) return {};
    const eventTypeId = moving ? (await server.services.stores.bookings.find(params.bookingUid!))!.eventTypeId! : String(named.eventTypeId);
    const from = futureStart(server);
    const { slots } = await findFreeSlots(server.services, { eventType: { id: eventTypeId }, start: from, end: from + 30 * 86_400_000, ...(moving ? { bookingUidToReschedule: params.bookingUid! } : {}) });
    return { start: new Date(slots[0]!.start).toISOString() };
  }

  async function measure(op: ReferenceOperation, check: ReturnType<typeof loadReference>['checkResponse'], request: ReturnType<typeof loadReference>['request']) {
    const served = apiRoutes.some((r) => r.method === op.method && pathShape(r.path) === op.shape);
    if (!served) return { outcome: 'absent' as Outcome, detail: '' };
    const params = await pathValues(op);
    const path = op.path.replace(/\{(\w+)\}/g, (_, p: string) => encodeURIComponent(params[p]!));
    const { query, body: sampled } = request(op, fill);
    const named = await operationFixtures(op);
    const body = sampled !== undefined && typeof sampled === 'object' ? { ...sampled, ...named, ...(await slotOf(op, params, named)) } : sampled;
    for (const key of Object.keys(query)) if (named[key] !== undefined) query[key] = String(named[key]);
    const search = Object.keys(query).length ? `?${new URLSearchParams(query)}` : '';
    const res = await fetch(`${server.url}${path}${search}`, {
      method: op.method,
      headers: {
        authorization: `Bearer ${token}`,
        ...(op.apiVersion ? { 'cal-api-version': op.apiVersion } : {}),
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
      },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
    const text = await res.text();
    const answer = text ? JSON.parse(text) : null;
    if (res.status >= 300) return { outcome: 'refused' as Outcome, detail: `${res.status} ${answer?.error?.message ?? ''}` };
    if (!op.spec) return { outcome: 'conforms' as Outcome, detail: 'no schema published' };
    const mismatch = check(op, res.status, answer);
    return mismatch === null ? { outcome: 'conforms' as Outcome, detail: '' } : { outcome: 'different' as Outcome, detail: mismatch };
  }

  it.skipIf(!run)('every OAuth-scoped operation of Cal.com API v2 answers as recorded in calcom-conformance.json', async () => {
    const { operations, checkResponse, request, ...reference } = loadReference();
    bookingFieldExamples = reference.bookingFieldExamples;
    const measured: Record_ = { absent: [], refused: [], different: [], conforms: [] };
    const details: string[] = [];
    for (const op of operations) {
      const { outcome, detail } = await measure(op, checkResponse, request);
      const key = `${op.method} ${op.path}`;
      measured[outcome].push(key);
      if (detail) details.push(`${outcome.padEnd(9)} ${key}: ${detail.slice(0, 200)}`);
    }
    // eslint-disable-next-line no-console
    console.log(
      `Cal.com API v2 conformance on ${name}, ${operations.length} operations: ` +
        OUTCOMES.map((o) => `${o} ${measured[o].length}`).join(', ') +
        (process.env.CONFORMANCE_DETAILS ? `\n${details.join('\n')}` : ' (CONFORMANCE_DETAILS=1 lists why)'),
    );
    if (process.env.UPDATE_CONFORMANCE) writeFileSync(recordFile, `${JSON.stringify(measured, null, 2)}\n`);
    const recorded = JSON.parse(readFileSync(recordFile, 'utf8')) as Record_;
    for (const outcome of OUTCOMES) expect(measured[outcome], `operations that are ${outcome}`).toEqual(recorded[outcome]);
  });
});
