// A small world for the platform API tests: an organization with a team, users in every
// role, another organization, and direct writers for resources and tokens. Tokens are
// minted straight into storage (grant + access token, as the token endpoint writes them)
// so hundreds of scope combinations stay fast; test/platform/platform-flows.test.ts keeps the
// real browser flow for a few.
import { randomBytes } from 'node:crypto';
import { createOAuthStore } from '../../src/storage/stores/oauth.ts';
import { generateToken, hashToken, randomId } from '../../src/oauth/token-format.ts';
import { scopeRegistry } from '../../src/oauth/scopes.ts';
import { inviteMember } from '../../src/services/teams/invitations.ts';
import { addMember, createOrganization, createTeam } from '../../src/services/teams/teams.ts';
import { requestCode } from '../../src/services/accounts/verification.ts';
import type { Organization, Team } from '../../src/services/teams/store.ts';
import type { TestClient, TestServer, TestUser } from '../helpers/server.ts';

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

let counter = 0;
export const uniq = () => `${Date.now().toString(36)}${(counter++).toString(36)}${randomBytes(2).toString('hex')}`;

/** A user without the argon2 cost: these never log in. */
export async function quickUser(server: TestServer, name = 'Quick User'): Promise<TestUser> {
  const id = randomId();
  const email = `q-${uniq()}@example.com`;
  const now = server.clock();
  await server.db
    .insertInto('users')
    .values({ id, email, name, username: `q-${uniq()}`, password_hash: 'not-a-hash', is_admin: 0, time_zone: 'UTC', week_start: 'Monday', time_format: 24, default_schedule_id: null, organization_id: null, created_at: now, updated_at: now })
    .execute();
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
  // invitee shows what a pending invitation is worth: nothing (SPEC §2 item 23).
  await inviteMember(s, { teamId: team.id }, { email: invitee.email }, 'admin', owner.id);
  await inviteMember(s, { organizationId: org.id }, { userId: invitee.id }, 'admin', owner.id);
  const otherOrg = await createOrganization(s, { name: 'Rival Corp', ownerId: outsider.id });
  const otherTeam = await createTeam(s, { name: 'Rivals', ownerId: outsider.id, organizationId: otherOrg.id });
  const loneTeam = await createTeam(s, { name: 'Lone', ownerId: owner.id });
  const client = await server.client(owner, { scopes: ALL_SCOPES });
  const legacyClient = await server.client(owner, { scopes: null });
  return { owner, orgAdmin, teamAdmin, member, outsider, invitee, org, team, otherOrg, otherTeam, loneTeam, client, legacyClient };
}

const tokens = new Map<string, string>();

/**
 * An access token of `user` with exactly `scopes` (null: a legacy grant), as the token
 * endpoint stores it, bound to `resources` (RFC 8707; null: the default resource, /v2).
 */
export async function mint(server: TestServer, w: World, user: TestUser, scopes: string[] | null, resources: string[] | null = null): Promise<string> {
  const key = `${server.url}|${user.id}|${scopes === null ? 'legacy' : [...scopes].sort().join(',')}|${resources?.join(',') ?? ''}`;
  const cached = tokens.get(key);
  if (cached) return cached;
  const store = createOAuthStore(server.db);
  const now = server.clock();
  const clientId = scopes === null ? w.legacyClient.clientId : w.client.clientId;
  const grantId = randomId();
  const token = generateToken('accessToken');
  await store.createGrant({ id: grantId, userId: user.id, clientId, scopes, createdAt: now, revokedAt: null });
  await store.createAccessToken({ hash: hashToken(token), grantId, codeHash: null, clientId, userId: user.id, scopes, resources, createdAt: now, expiresAt: now + 3600_000, revokedAt: null });
  tokens.set(key, token);
  return token;
}

let slot = 0;
/** A distinct future start, so bookings never collide on a host's time. */
export function futureStart(server: TestServer): number {
  slot += 1;
  return Math.ceil(server.clock() / 3600_000) * 3600_000 + 24 * 3600_000 + slot * 3600_000;
}

type EtOwner = { userId: string } | { teamId: string };

export function fixtures(server: TestServer) {
  const db = server.db;
  const now = () => server.clock();
  return {
    async eventType(owner: EtOwner, options: { hidden?: boolean; requiresConfirmation?: boolean; lengthInMinutes?: number; roundRobin?: boolean; minimumBookingNotice?: number } = {}) {
      const row = {
        id: randomId(),
        user_id: 'userId' in owner ? owner.userId : null,
        team_id: 'teamId' in owner ? owner.teamId : null,
        title: 'Intro call',
        slug: `intro-${uniq().toLowerCase()}`,
        description: 'A first talk',
        length_minutes: options.lengthInMinutes ?? 30,
        locations: JSON.stringify([{ type: 'link', value: 'https://meet.example.com/intro' }]),
        hidden: options.hidden ? 1 : 0,
        requires_confirmation: options.requiresConfirmation ? 1 : 0,
        minimum_booking_notice: options.minimumBookingNotice ?? 0,
        scheduling_type: 'teamId' in owner ? (options.roundRobin ? 'roundRobin' : 'collective') : null,
        created_at: now(),
        updated_at: now(),
      };
      await db.insertInto('event_types').values(row).execute();
      return row;
    },
    async privateLink(eventTypeId: string, options: { maxUses?: number } = {}) {
      const row = { id: randomId(), event_type_id: eventTypeId, link_hash: randomId(24), expires_at: null, max_uses: options.maxUses ?? null, use_count: 0, created_at: now() };
      await db.insertInto('private_links').values(row).execute();
      return row;
    },
    /** A booking as the public route makes it, with the booker's manageToken (SPEC §2 item 26). */
    async booking(options: { hostId: string; teamId?: string; eventTypeId?: string; status?: 'pending' | 'accepted' | 'cancelled'; start?: number }) {
      const start = options.start ?? futureStart(server);
      const manageToken = generateToken('bookingManageToken');
      const row = {
        uid: randomId(),
        event_type_id: options.eventTypeId ?? null,
        user_id: options.hostId,
        team_id: options.teamId ?? null,
        title: 'Intro call with Ann',
        description: '',
        start_time: start,
        end_time: start + 30 * 60_000,
        status: options.status ?? 'accepted',
        attendee_name: 'Ann Attendee',
        attendee_email: 'ann@example.com',
        attendee_time_zone: 'Europe/Paris',
        guests: '[]',
        location: 'https://meet.example.com/intro',
        cancellation_reason: null,
        decline_reason: null,
        rescheduled_from: null,
        rescheduled_to: null,
        manage_token_hash: hashToken(manageToken),
        created_at: now(),
        updated_at: now(),
      };
      await db.insertInto('bookings').values(row).execute();
      return { ...row, manageToken };
    },
    async schedule(owner: EtOwner) {
      const row = {
        id: randomId(),
        user_id: 'userId' in owner ? owner.userId : null,
        team_id: 'teamId' in owner ? owner.teamId : null,
        name: 'Working hours',
        time_zone: 'Europe/Berlin',
        availability: JSON.stringify([{ days: ['Monday', 'Tuesday'], startTime: '09:00', endTime: '17:00' }]),
        overrides: '[]',
        created_at: now(),
        updated_at: now(),
      };
      await db.insertInto('schedules').values(row).execute();
      return row;
    },
    async app(owner: EtOwner, app: string, category = 'calendar') {
      const row = { id: randomId(), user_id: 'userId' in owner ? owner.userId : null, team_id: 'teamId' in owner ? owner.teamId : null, app, category, account: `${uniq()}@example.com`, name: app, read_only: 0, created_at: now() };
      await db.insertInto('connected_apps').values(row).execute();
      return row;
    },
    async webhook(owner: { userId: string } | { organizationId: string }) {
      const row = {
        id: randomId(),
        user_id: 'userId' in owner ? owner.userId : null,
        organization_id: 'organizationId' in owner ? owner.organizationId : null,
        subscriber_url: 'https://hooks.example.com/gatehouse',
        triggers: JSON.stringify(['BOOKING_CREATED']),
        active: 1,
        payload_template: null,
        created_at: now(),
        updated_at: now(),
      };
      await db.insertInto('webhooks').values(row).execute();
      return row;
    },
    /** A delivery to the webhook that has been attempted once and failed (SPEC §9). */
    async delivery(webhookId: string) {
      const row = {
        id: `msg_${randomId()}`,
        webhook_id: webhookId,
        client_id: null,
        event: 'BOOKING_CREATED',
        payload: JSON.stringify({ type: 'BOOKING_CREATED', timestamp: new Date(now()).toISOString(), data: {} }),
        status: 'failed' as const,
        attempts: 1,
        next_attempt_at: null,
        last_attempt_at: now(),
        response_status: 500,
        response_body: 'down',
        error: null,
        created_at: now(),
      };
      await db.insertInto('webhook_deliveries').values(row).execute();
      return row;
    },
    async form(owner: { teamId: string } | { organizationId: string }) {
      const row = {
        id: randomId(),
        team_id: 'teamId' in owner ? owner.teamId : null,
        organization_id: 'organizationId' in owner ? owner.organizationId : null,
        name: 'Intake',
        description: '',
        fields: JSON.stringify([
          { id: 'email', label: 'Email', type: 'email', required: true },
          { id: 'size', label: 'Company size', type: 'select', options: ['1-10', '11-100', '100+'] },
        ]),
        disabled: 0,
        created_at: now(),
        updated_at: now(),
      };
      await db.insertInto('routing_forms').values(row).execute();
      return row;
    },
    async response(formId: string) {
      const row = { id: randomId(), form_id: formId, response: JSON.stringify({ email: 'lead@example.com' }), created_at: now(), updated_at: now() };
      await db.insertInto('routing_form_responses').values(row).execute();
      return row;
    },
    async workflow(teamId: string) {
      const row = {
        id: randomId(),
        team_id: teamId,
        name: 'Reminder',
        trigger: 'BEFORE_EVENT',
        time_offset_minutes: 60,
        steps: JSON.stringify([{ action: 'EMAIL_ATTENDEE', body: 'See you soon' }]),
        active_on: '[]',
        active: 1,
        created_at: now(),
        updated_at: now(),
      };
      await db.insertInto('workflows').values(row).execute();
      return row;
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
