// Seeds the benchmark database through the same storage code the server uses: one user,
// one approved client, and enough codes and refresh tokens for one run; plus a team the
// user belongs to, with event types, and a token holding TEAM_EVENT_TYPE_READ; and a
// logged-in browser whose consent is remembered (and another, for 10,000 authorizations).
import { createOAuthStore } from '../src/storage/stores/oauth.ts';
import { createDpopProofStore } from '../src/storage/stores/dpop-proofs.ts';
import { KeySealer, SigningKeys } from '../src/oauth/signing-keys.ts';
import { createSigningKeyStore } from '../src/storage/stores/signing-keys.ts';
import { DpopNonces } from '../src/oauth/dpop.ts';
import type { DatabaseHandle } from '../src/storage/database.ts';
import { createClient } from '../src/services/clients/registration.ts';
import { reviewClient } from '../src/services/clients/review.ts';
import { addMember, createOrganization, createTeam } from '../src/services/teams/teams.ts';
import { createUser } from '../src/services/accounts/users.ts';
import { createSession } from '../src/services/accounts/sessions.ts';
import { generateToken, hashToken, randomId, timeOrderedId } from '../src/oauth/token-format.ts';
import { mintPair, storePair } from '../src/oauth/token-response.ts';
import type { OAuthContext } from '../src/oauth/context.ts';
import { createServiceContext } from '../src/storage/stores/index.ts';

export interface Seeded {
  clientId: string;
  secret: string;
  redirectUri: string;
  codes: string[];
  refreshTokens: string[];
  accessToken: string;
  /** Bound to the key of the seed's caller (RFC 9449); '' when none was given. */
  dpopAccessToken: string;
  teamId: string;
  /** TEAM_EVENT_TYPE_READ, of a plain member of the team. */
  teamAccessToken: string;
  /** A logged-in browser's session cookie value, of a user who approved PROFILE_READ once. */
  browserSession: string;
  /** As browserSession, of another user: the run makes 10,000 authorizations with it first. */
  busySession: string;
  /** A round-robin event type of a team of 10 hosts who hold 1,000 bookings over the next month (issue 37 item 6). */
  roundRobinEventTypeId: string;
}

export async function seed(database: DatabaseHandle, counts: { codes: number; refreshTokens: number }, dpopJkt?: string): Promise<Seeded> {
  const services = createServiceContext(database.db, Date.now);
  const user = await createUser(services, { email: 'bench@example.com', name: 'Bench', password: 'bench-password' });
  const redirectUri = 'https://bench.example.com/cb';
  const { client, secret } = await createClient(services, {
    ownerId: user.id,
    name: 'Bench',
    kind: 'confidential',
    redirectUris: [redirectUri],
    scopes: ['PROFILE_READ', 'TEAM_EVENT_TYPE_READ'],
  });
  await reviewClient(services, client.clientId, 'approve', null);
  const store = createOAuthStore(database.db);
  const ctx: OAuthContext = {
    store,
    clock: Date.now,
    issuer: 'http://bench',
    ttl: { authCode: 3600, accessToken: 3600, refreshIdle: 86400, refreshReuseWindow: 30 },
    resources: { default: 'http://bench/v2', known: ['http://bench/v2', 'http://bench/mcp'] },
    dpop: { proofs: createDpopProofStore(database.db), nonces: new DpopNonces('bench'), tokenEndpoint: 'http://bench/v2/auth/oauth2/token' },
    signingKeys: new SigningKeys(createSigningKeyStore(database.db), new KeySealer('bench signing keys secret'), Date.now, { refreshSeconds: 30, idTokenTtlSeconds: 3600 }),
  };
  const now = Date.now();
  const codes: string[] = [];
  const refreshTokens: string[] = [];
  let accessToken = '';
  let dpopAccessToken = '';
  await store.transaction(async (tx) => {
    for (let i = 0; i < Math.max(counts.codes, counts.refreshTokens, 1); i++) {
      // One after another, as authorizations make them.
      const grantId = timeOrderedId(now + i);
      await tx.createGrant({ id: grantId, userId: user.id, clientId: client.clientId, scopes: ['PROFILE_READ'], createdAt: now, revokedAt: null });
      if (i < counts.codes) {
        const code = generateToken('authorizationCode');
        codes.push(code);
        await tx.createCode({ hash: hashToken(code), clientId: client.clientId, userId: user.id, grantId, redirectUri, scopes: ['PROFILE_READ'], codeChallenge: null, resources: null, createdAt: now, expiresAt: now + 3600_000, consumedAt: null });
      }
      if (i < counts.refreshTokens || i === 0) {
        const pair = mintPair(ctx, { grantId, codeHash: null, clientId: client.clientId, userId: user.id, scopes: ['PROFILE_READ'], resources: null }, null);
        await storePair(tx, pair, { type: 'token.issued', clientId: client.clientId, userId: user.id, data: { grantId } }, now);
        if (i < counts.refreshTokens) refreshTokens.push(pair.refreshToken);
        if (i === 0) accessToken = pair.accessToken;
      }
      // RFC 9449 §6: one access token bound to the load generator's key, for the DPoP scenarios.
      if (i === 0 && dpopJkt !== undefined) {
        const bound = mintPair(ctx, { grantId, codeHash: null, clientId: client.clientId, userId: user.id, scopes: ['PROFILE_READ'], resources: null }, null, null, { access: dpopJkt, refresh: null });
        await storePair(tx, bound, { type: 'token.issued', clientId: client.clientId, userId: user.id, data: { grantId } }, now);
        dpopAccessToken = bound.accessToken;
      }
    }
  });
  // A team route: the member is checked against the team in the same query as the token.
  const owner = await createUser(services, { email: 'bench-owner@example.com', name: 'Bench Owner', password: 'bench-password' });
  const org = await createOrganization(services, { name: 'Bench Org', ownerId: owner.id });
  const team = await createTeam(services, { name: 'Bench Team', ownerId: owner.id, organizationId: org.id });
  await addMember(services, { teamId: team.id }, user.id, 'member');
  for (let i = 0; i < 5; i++) {
    await database.db
      .insertInto('event_types')
      // A numbered id (docs/rules.md#numbered-ids): the answer's schema writes it as an integer.
      .values({ id: await services.stores.ids.next('event_types'), user_id: null, team_id: team.id, title: `Team call ${i}`, slug: `team-call-${i}`, description: '', length_minutes: 30, locations: '[]', hidden: 0, requires_confirmation: 0, minimum_booking_notice: 0, scheduling_type: 'collective', created_at: now, updated_at: now })
      .execute();
  }
  const teamGrantId = randomId();
  const teamScopes = ['TEAM_EVENT_TYPE_READ'];
  await store.createGrant({ id: teamGrantId, userId: user.id, clientId: client.clientId, scopes: teamScopes, createdAt: now, revokedAt: null });
  const teamAccessToken = generateToken('accessToken');
  await store.createAccessToken({ hash: hashToken(teamAccessToken), grantId: teamGrantId, codeHash: null, clientId: client.clientId, userId: user.id, scopes: teamScopes, resources: null, createdAt: now, expiresAt: now + 3600_000, revokedAt: null });
  // Remembered consent: a second user (the first holds one grant per seeded code), logged
  // in, who approved the client once; the authorization endpoint answers with a code.
  const browser = await createUser(services, { email: 'bench-browser@example.com', name: 'Bench Browser', password: 'bench-password' });
  await store.createGrant({ id: randomId(), userId: browser.id, clientId: client.clientId, scopes: ['PROFILE_READ'], createdAt: now, revokedAt: null });
  const browserSession = await createSession(services, browser.id);
  // The same for a third user, whom the run drives through 10,000 authorizations first.
  const busy = await createUser(services, { email: 'bench-busy@example.com', name: 'Bench Busy', password: 'bench-password' });
  await store.createGrant({ id: randomId(), userId: busy.id, clientId: client.clientId, scopes: ['PROFILE_READ'], createdAt: now, revokedAt: null });
  const busySession = await createSession(services, busy.id);
  const roundRobinEventTypeId = await seedRoundRobinTeam(services, owner.id, now);
  return { roundRobinEventTypeId, browserSession, busySession, clientId: client.clientId, secret: secret!, redirectUri, codes, refreshTokens, accessToken, dpopAccessToken, teamId: team.id, teamAccessToken };
}

/**
 * docs/integrating.md#slots at scale: a team of 10 hosts (Cal.com's default week, in UTC), a
 * round-robin event type of 30 minutes, and 1,000 accepted bookings of theirs spread over the
 * next 30 days' working hours, so that a month of slots weighs every host's week and bookings.
 */
async function seedRoundRobinTeam(services: ReturnType<typeof createServiceContext>, ownerId: string, now: number): Promise<string> {
  const team = await createTeam(services, { name: 'Bench Round Robin', ownerId });
  const hosts = [ownerId];
  for (let i = 1; i < 10; i++) {
    const host = await createUser(services, { email: `bench-host-${i}@example.com`, name: `Bench Host ${i}`, password: 'bench-password' });
    await addMember(services, { teamId: team.id }, host.id, 'member');
    hosts.push(host.id);
  }
  const eventTypeId = await services.stores.ids.next('event_types');
  await services.stores.api.eventTypes.insert({
    id: eventTypeId, ownerId: null, teamId: team.id, title: 'Round robin intro', slug: 'round-robin-intro', description: '', lengthMinutes: 30, locations: [], bookingFields: [],
    hidden: false, requiresConfirmation: false, minimumBookingNotice: 0, schedulingType: 'roundRobin', createdAt: now, updatedAt: now,
  });
  const DAY = 86_400_000;
  const firstDay = Math.floor(now / DAY) * DAY + DAY;
  const weekdays = Array.from({ length: 30 }, (_, d) => firstDay + d * DAY).filter((day) => ![0, 6].includes(new Date(day).getUTCDay()));
  for (let i = 0; i < 1000; i++) {
    // Each host's bookings fill distinct half hours of 09:00-17:00 UTC, day after day.
    const day = weekdays[Math.floor(i / 10 / 16) % weekdays.length]!;
    const start = day + 9 * 3_600_000 + (Math.floor(i / 10) % 16) * 1_800_000;
    await services.stores.bookings.insert({
      id: await services.stores.ids.next('bookings'), uid: randomId(), eventTypeId, hostId: hosts[i % 10]!, teamId: team.id, title: 'Round robin intro', description: '',
      start, end: start + 1_800_000, status: 'accepted', attendee: { name: `Booker ${i}`, email: `booker-${i}@example.com`, timeZone: 'UTC' }, guests: [], location: '',
      cancellationReason: null, declineReason: null, rescheduledFrom: null, rescheduledTo: null, manageTokenHash: null, absentHost: false, responses: {}, createdAt: now, updatedAt: now,
    });
  }
  return eventTypeId;
}
