// A small world for the platform API tests: an organization with a team, users in every
// role, another organization, and writers of resources and tokens through the stores' ports.
// Tokens are minted straight into the core's store (grant + access token, as the token
// endpoint writes them) so hundreds of scope combinations stay fast;
// test/platform/platform-flows.test.ts keeps the real browser flow for a few.
import { randomBytes, randomUUID } from 'node:crypto';
import { generateToken, hashToken, randomId } from '../../src/oauth/token-format.ts';
import { scopeRegistry } from '../../src/oauth/scopes.ts';
import { inviteMember } from '../../src/services/teams/invitations.ts';
import { addMember, createOrganization, createTeam } from '../../src/services/teams/teams.ts';
import { requestCode } from '../../src/services/accounts/verification.ts';
import type { Organization, Team } from '../../src/services/teams/store.ts';
import type { Webhook } from '../../src/services/webhooks/subscriptions.ts';
import { newSigningSecret } from '../../src/services/webhooks/signing.ts';
import type { Booking } from '../../src/platform/bookings/store.ts';
import type { ConnectedApp } from '../../src/platform/connected-apps/store.ts';
import type { BookingField, EventType, PrivateLink } from '../../src/platform/event-types/store.ts';
import type { OutOfOfficeEntry } from '../../src/platform/out-of-office/store.ts';
import type { RoutingForm } from '../../src/platform/routing-forms/store.ts';
import type { Workflow } from '../../src/platform/workflows/store.ts';
import { afterAll, beforeAll } from 'vitest';
import type { Backend } from '../helpers/backends.ts';
import { startTestServer, type TestClient, type TestServer, type TestUser } from '../helpers/server.ts';
import { slotStart } from '../helpers/slot-starts.ts';

export const ALL_SCOPES = scopeRegistry.map((s) => s.name);

export interface World {
  owner: TestUser;
  orgAdmin: TestUser;
  teamAdmin: TestUser;
  member: TestUser;
  outsider: TestUser;
  /** Invited as admin of the team (by e-mail) and of the organization (by id); never accepted. */
  invitee: TestUser;
  org: Organization;
  team: Team;
  otherOrg: Organization;
  otherTeam: Team;
  /** A team in no organization. */
  loneTeam: Team;
  client: TestClient;
  legacyClient: TestClient;
}

/** What a platform test file works with: a server, its world and the writers of resources. */
export interface WorldServer {
  server: TestServer;
  w: World;
  f: ReturnType<typeof fixtures>;
}

/**
 * One server on `backend` with its world for the surrounding describe block: started before
 * its tests (not at all when the backend is unavailable), closed after them. `use` receives
 * them once started, to keep in the block's own variables. Given a server of `useServer`
 * instead of a backend, the block builds its own world on that server, which stays open for
 * the other blocks sharing it (its settings are the server's: `env` is for a server of its own).
 */
export function useWorld(backend: Backend['name'] | SharedServer, available: boolean, use: (started: WorldServer) => void, env: Record<string, string> = {}): void {
  let server: TestServer | undefined;
  beforeAll(async () => {
    if (!available) return;
    const shared = typeof backend === 'function' ? backend() : undefined;
    server = shared ?? (await startTestServer(backend as Backend['name'], env));
    use({ server, w: await buildWorld(server), f: fixtures(server) });
    if (shared !== undefined) server = undefined;
  });
  afterAll(async () => server?.close());
}

/** The server of a `useServer` block, once started. */
export type SharedServer = () => TestServer;

/**
 * One server on `backend` for the surrounding describe block, shared by the blocks inside it
 * (each with a world of its own, `useWorld(shared, ...)`): a suite of several files' worth of
 * tests of one resource pays for one server and one database per backend.
 */
export function useServer(backend: Backend['name'], available: boolean, env: Record<string, string> = {}): SharedServer {
  let server: TestServer | undefined;
  beforeAll(async () => {
    if (available) server = await startTestServer(backend, env);
  });
  afterAll(async () => server?.close());
  return () => {
    if (server === undefined) throw new Error('the shared server is not started: its backend is unavailable');
    return server;
  };
}

let counter = 0;
export const uniq = () => `${Date.now().toString(36)}${(counter++).toString(36)}${randomBytes(2).toString('hex')}`;

/** A user without the argon2 cost: these never log in. */
export async function quickUser(server: TestServer, name = 'Quick User'): Promise<TestUser> {
  const id = await server.services.stores.ids.next('users');
  const email = `q-${uniq()}@example.com`;
  const now = server.clock();
  const user = { id, email, name, username: `q-${uniq()}`, passwordHash: 'not-a-hash', isAdmin: false, timeZone: 'UTC', weekStart: 'Monday', timeFormat: 24, defaultScheduleId: null, organizationId: null, createdAt: now, updatedAt: now };
  if (!(await server.services.stores.users.insert(user))) throw new Error(`could not store the user ${email}`);
  return { id, email, password: '' };
}

export async function buildWorld(server: TestServer): Promise<World> {
  const s = server.services;
  const owner = await quickUser(server, 'Olive Owner');
  const orgAdmin = await quickUser(server, 'Orin Org-Admin');
  const teamAdmin = await quickUser(server, 'Tara Team-Admin');
  const member = await quickUser(server, 'Mo Member');
  const outsider = await quickUser(server, 'Otto Outsider');
  const invitee = await quickUser(server, 'Ivy Invitee');
  const org = await createOrganization(s, { name: 'Acme', ownerId: owner.id });
  await addMember(s, { organizationId: org.id }, orgAdmin.id, 'admin');
  const team = await createTeam(s, { name: 'Sales', ownerId: owner.id, organizationId: org.id });
  await addMember(s, { teamId: team.id }, teamAdmin.id, 'admin');
  await addMember(s, { teamId: team.id }, member.id, 'member');
  // Members above are accepted at once, as `gatehouse members add` makes them; the
  // invitee shows what a pending invitation is worth: nothing (docs/rules.md#membership-invitations).
  await inviteMember(s, { teamId: team.id }, { email: invitee.email }, 'admin', owner.id);
  await inviteMember(s, { organizationId: org.id }, { userId: invitee.id }, 'admin', owner.id);
  const otherOrg = await createOrganization(s, { name: 'Rival Corp', ownerId: outsider.id });
  const otherTeam = await createTeam(s, { name: 'Rivals', ownerId: outsider.id, organizationId: otherOrg.id });
  const loneTeam = await createTeam(s, { name: 'Lone', ownerId: owner.id });
  const client = await server.client(owner, { scopes: ALL_SCOPES });
  const legacyClient = await server.client(owner, { scopes: null });
  return { owner, orgAdmin, teamAdmin, member, outsider, invitee, org, team, otherOrg, otherTeam, loneTeam, client, legacyClient };
}

// Per server object, not per URL: a worker runs file after file (isolate: false), and a later
// file's server over a fresh database may get an earlier one's port and the same user ids.
const tokens = new WeakMap<TestServer, Map<string, string>>();

/**
 * An access token of `user` with exactly `scopes` (null: a legacy grant), as the token
 * endpoint stores it, bound to `resources` (RFC 8707; null: the default resource, /v2).
 */
export async function mint(server: TestServer, w: World, user: TestUser, scopes: string[] | null, resources: string[] | null = null): Promise<string> {
  const key = `${user.id}|${scopes === null ? 'legacy' : [...scopes].sort().join(',')}|${resources?.join(',') ?? ''}`;
  const ofServer = tokens.get(server) ?? new Map<string, string>();
  tokens.set(server, ofServer);
  const cached = ofServer.get(key);
  if (cached) return cached;
  const now = server.clock();
  const clientId = scopes === null ? w.legacyClient.clientId : w.client.clientId;
  const grantId = randomId();
  const token = generateToken('accessToken');
  await server.oauth.createGrant({ id: grantId, userId: user.id, clientId, scopes, createdAt: now, revokedAt: null });
  await server.oauth.createAccessToken({ hash: hashToken(token), grantId, codeHash: null, clientId, userId: user.id, scopes, resources, createdAt: now, expiresAt: now + 3600_000, revokedAt: null });
  ofServer.set(key, token);
  return token;
}

let slot = 0;
/**
 * A distinct future start, so bookings never collide on a host's time, and a slot of every
 * host of these worlds, so a booking of it keeps to availability (test/helpers/slot-starts.ts).
 */
export function futureStart(server: TestServer): number {
  return slotStart(server.clock(), slot++);
}

type EtOwner = { userId: string } | { teamId: string };

export function fixtures(server: TestServer) {
  const stores = server.services.stores;
  const now = () => server.clock();
  const owned = (owner: EtOwner) => ({ ownerId: 'userId' in owner ? owner.userId : null, teamId: 'teamId' in owner ? owner.teamId : null });
  return {
    async eventType(owner: EtOwner, options: { hidden?: boolean; requiresConfirmation?: boolean; lengthInMinutes?: number; roundRobin?: boolean; minimumBookingNotice?: number; bookingFields?: BookingField[] } = {}) {
      const eventType: EventType = {
        id: await stores.ids.next('event_types'),
        ...owned(owner),
        title: 'Intro call',
        slug: `intro-${uniq().toLowerCase()}`,
        description: 'A first talk',
        lengthMinutes: options.lengthInMinutes ?? 30,
        locations: [{ type: 'link', value: 'https://meet.example.com/intro' }],
        bookingFields: options.bookingFields ?? [],
        hidden: options.hidden ?? false,
        requiresConfirmation: options.requiresConfirmation ?? false,
        minimumBookingNotice: options.minimumBookingNotice ?? 0,
        schedulingType: 'teamId' in owner ? (options.roundRobin ? 'roundRobin' : 'collective') : null,
        createdAt: now(),
        updatedAt: now(),
      };
      if ((await stores.api.eventTypes.insert(eventType)) === 'slugTaken') throw new Error(`slug ${eventType.slug} taken`);
      return eventType;
    },
    async privateLink(eventTypeId: string, options: { maxUses?: number } = {}) {
      const link: PrivateLink = { id: randomId(), eventTypeId, hash: randomId(24), expiresAt: null, maxUses: options.maxUses ?? null, useCount: 0, createdAt: now() };
      await stores.api.eventTypes.insertPrivateLink(link);
      return link;
    },
    /** A booking as the public route makes it, with the booker's manageToken (docs/rules.md#public-booking). */
    async booking(options: { hostId: string; teamId?: string; eventTypeId?: string; status?: 'pending' | 'accepted' | 'cancelled'; start?: number }) {
      const start = options.start ?? futureStart(server);
      const manageToken = generateToken('bookingManageToken');
      const booking: Booking = {
        id: await stores.ids.next('bookings'),
        uid: randomId(),
        eventTypeId: options.eventTypeId ?? null,
        hostId: options.hostId,
        teamId: options.teamId ?? null,
        title: 'Intro call with Ann',
        description: '',
        start,
        end: start + 30 * 60_000,
        status: options.status ?? 'accepted',
        attendee: { name: 'Ann Attendee', email: 'ann@example.com', timeZone: 'Europe/Paris' },
        guests: [],
        location: 'https://meet.example.com/intro',
        cancellationReason: null,
        declineReason: null,
        rescheduledFrom: null,
        rescheduledTo: null,
        manageTokenHash: hashToken(manageToken),
        absentHost: false,
        responses: {},
        createdAt: now(),
        updatedAt: now(),
      };
      await stores.bookings.insert(booking);
      return { ...booking, manageToken };
    },
    async schedule(owner: EtOwner) {
      const schedule = {
        id: await stores.ids.next('schedules'),
        ...owned(owner),
        name: 'Working hours',
        timeZone: 'Europe/Berlin',
        availability: [{ days: ['Monday', 'Tuesday'], startTime: '09:00', endTime: '17:00' }],
        overrides: [],
        createdAt: now(),
        updatedAt: now(),
      };
      await stores.api.schedules.insert(schedule);
      return schedule;
    },
    /** An out-of-office entry of the user, half an hour from a distinct future start unless given. */
    async ooo(userId: string, options: { start?: number; end?: number; toUserId?: string } = {}) {
      const start = options.start ?? futureStart(server);
      const entry: OutOfOfficeEntry = {
        id: await stores.ids.next('out_of_office_entries'),
        uuid: randomUUID(),
        userId,
        toUserId: options.toUserId ?? null,
        start,
        end: options.end ?? start + 30 * 60_000,
        notes: null,
        reason: 'vacation',
        createdAt: now(),
        updatedAt: now(),
      };
      await stores.api.outOfOffice.insert(entry);
      return entry;
    },
    async app(owner: EtOwner, app: string, category = 'calendar') {
      const connected: ConnectedApp = { id: await stores.ids.next('connected_apps'), owner, app, category, account: `${uniq()}@example.com`, name: app, readOnly: false, createdAt: now(), selected: false, destination: false };
      if (!(await stores.api.connectedApps.insertAll([connected]))) throw new Error(`${connected.account} is already connected`);
      return connected;
    },
    async webhook(owner: { userId: string } | { organizationId: string } | { eventTypeId: string }) {
      const webhook: Webhook = {
        id: await stores.ids.next('webhooks'),
        ownerId: 'userId' in owner ? owner.userId : null,
        organizationId: 'organizationId' in owner ? owner.organizationId : null,
        eventTypeId: 'eventTypeId' in owner ? owner.eventTypeId : null,
        subscriberUrl: 'https://hooks.example.com/gatehouse',
        triggers: ['BOOKING_CREATED'],
        active: true,
        payloadTemplate: null,
        disabledReason: null,
        createdAt: now(),
        updatedAt: now(),
      };
      await stores.webhooks.insert(webhook, newSigningSecret());
      return webhook;
    },
    /** A delivery to the webhook, waiting in the outbox as a booking event leaves it (docs/rules.md#webhooks). */
    async delivery(webhookId: string) {
      const [id] = await stores.webhookDeliveries.enqueue([{ webhookId }], 'BOOKING_CREATED', {}, now());
      return { id: id! };
    },
    async form(owner: { teamId: string } | { organizationId: string }) {
      const form: RoutingForm = {
        id: randomId(),
        teamId: 'teamId' in owner ? owner.teamId : null,
        organizationId: 'organizationId' in owner ? owner.organizationId : null,
        name: 'Intake',
        description: '',
        fields: [
          { id: 'email', label: 'Email', type: 'email', required: true },
          { id: 'size', label: 'Company size', type: 'select', options: ['1-10', '11-100', '100+'] },
        ],
        disabled: false,
        createdAt: now(),
        updatedAt: now(),
      };
      await stores.api.routingForms.insert(form);
      return form;
    },
    async response(formId: string) {
      const response = { id: await stores.ids.next('routing_form_responses'), formId, answers: { email: 'lead@example.com' }, createdAt: now(), updatedAt: now() };
      await stores.api.routingForms.insertResponse(response);
      return response;
    },
    async workflow(teamId: string) {
      const workflow: Workflow = {
        id: await stores.ids.next('workflows'),
        teamId,
        name: 'Reminder',
        trigger: 'BEFORE_EVENT',
        timeOffsetMinutes: 60,
        steps: [{ action: 'EMAIL_ATTENDEE', body: 'See you soon' }],
        activeOnEventTypeIds: [],
        active: true,
        createdAt: now(),
        updatedAt: now(),
      };
      await stores.api.workflows.insert(workflow);
      return workflow;
    },
    async membership(target: { teamId: string } | { organizationId: string }, role: 'member' | 'admin' | 'owner' = 'member') {
      const user = await quickUser(server);
      const m = await addMember(server.services, target, user.id, role);
      return { user, membership: m };
    },
    /** A pending verification code, captured where the log would receive it. */
    async pendingCode(owner: { userId: string } | { teamId: string }, kind: 'email' | 'phone', value: string): Promise<string> {
      let code = '';
      await requestCode(server.services, owner, kind, value, (_k, _to, c) => {
        code = c;
      });
      return code;
    },
  };
}

export const randomPhone = () => `+4915${String(Math.floor(Math.random() * 1e9)).padStart(9, '0')}`;

/** Fills `:name` segments of a registry path. */
export function fillPath(path: string, params: Record<string, string>): string {
  return path.replace(/:([A-Za-z]+)/g, (_m, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`no value for :${name} in ${path}`);
    return encodeURIComponent(value);
  });
}
