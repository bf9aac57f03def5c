// Authorization of one platform-API request (docs/rules.md#api-envelope, docs/rules.md#membership-rules): bearer token, then
// scope, then membership. The token, the team or organization of the path and the user's
// roles in them come from ONE storage read, so a guarded route costs that read plus its own
// queries, whatever the rule (a scope failure never reaches storage twice). The token check
// and the scope rule are the protocol core's (src/oauth); the membership rule is the API's.
import {
  type AccessPrincipal,
  type AccessTokenWithClient,
  type Audience,
  checkAccessRecord,
  checkSender,
  grantSatisfies,
  hashToken,
  parseBearer,
  type PresentedProof,
  type SenderRefusal,
} from './authorization-server.ts';
import { decideMembership, isAdmin, type AccessDenial, type AccessFacts, type DpopChallenge } from './membership.ts';
import type { ApiRoute } from './route-table.ts';

export interface AccessLookup {
  teamId?: string;
  organizationId?: string;
}

/** Storage contract: the token (with its client's state) and the facts, in one read. */
export interface ApiAccessStore {
  findAccess(tokenHash: string, lookup: AccessLookup): Promise<{ token: AccessTokenWithClient; facts: AccessFacts } | undefined>;
}

/** What a request presents: its Authorization header and the request a DPoP proof must describe (RFC 9449 §7). */
export interface PresentedCredentials {
  authorization: string | undefined;
  proof: PresentedProof;
  /**
   * The sender check's outcome once made: a proof is spent once (RFC 9449 §11.1), however
   * many checks one request runs (the MCP POST's and its tool's; a public route's and its booking write's).
   */
  sender?: Promise<SenderRefusal | undefined>;
}

/** The token was refused: under the DPoP scheme, or for its proof, a DPoP challenge says so (RFC 9449 §7.1). */
function invalidToken(message: string, dpop: DpopChallenge | undefined): AccessDenial {
  return dpop === undefined ? { status: 401, code: 'invalid_token', message } : { status: 401, code: 'invalid_token', message, dpop };
}

/**
 * The token record is good: is its sender? A DPoP-bound token needs the DPoP scheme and a
 * proof of its key; a bearer token the Bearer scheme (oauth/bearer.ts: checkSender).
 * One storage write for a DPoP request, the proof's replay record.
 */
async function senderDenial(credentials: PresentedCredentials, audience: Audience, clock: () => number, presented: { scheme: 'Bearer' | 'DPoP'; token: string }, token: AccessTokenWithClient): Promise<AccessDenial | undefined> {
  credentials.sender ??= checkSender(audience, clock(), presented, token.dpopJkt, credentials.proof);
  const refused = await credentials.sender;
  if (refused === undefined) return undefined;
  return invalidToken(refused.description, { error: refused.error, ...(refused.nonce !== undefined ? { nonce: refused.nonce } : {}) });
}

export interface AccessGranted {
  ok: true;
  /** Absent on a public route called without a token. */
  principal?: AccessPrincipal;
  facts: AccessFacts;
}

/** The whole check for one request: at most one storage read. */
export async function authorizeApiRequest(
  store: ApiAccessStore,
  clock: () => number,
  route: Pick<ApiRoute, 'scope' | 'membership' | 'alsoNeeds' | 'teamTokens'>,
  credentials: PresentedCredentials,
  params: { teamId?: string; orgId?: string },
  audience: Audience,
): Promise<AccessGranted | AccessDenial> {
  const parsed = parseBearer(credentials.authorization);
  if (!parsed.ok) {
    // docs/rules.md#public-booking: public routes need no token, but one that is sent must be valid.
    if (route.scope === 'public' && parsed.reason === 'missing') return { ok: true, facts: {} };
    return { status: 401, code: parsed.reason === 'missing' ? 'unauthorized' : 'invalid_token', message: parsed.description };
  }
  const lookup: AccessLookup = {};
  if (route.membership === 'team-member' || route.membership === 'team-admin') lookup.teamId = params.teamId;
  if (route.membership === 'org-admin' || route.membership === 'org-member') lookup.organizationId = params.orgId;
  const found = await store.findAccess(hashToken(parsed.token), lookup);
  const checked = checkAccessRecord(clock, found?.token, audience);
  if (!checked.ok) return invalidToken(checked.description, parsed.scheme === 'DPoP' ? { error: 'invalid_token' } : undefined);
  const sender = await senderDenial(credentials, audience, clock, parsed, found!.token);
  if (sender !== undefined) return sender;
  const { principal } = checked;
  // docs/rules.md#team-authorization: a route that answers a team's token for its own team
  // reads that team's facts (a second read, for such a token only) and holds it to that team.
  if (route.teamTokens === 'own-team' && principal.teamId !== undefined) {
    const own = await store.findAccess(hashToken(parsed.token), { teamId: principal.teamId });
    return decideRoute(principal, { ...route, membership: 'team-member' }, own?.facts ?? {}, undefined);
  }
  return decideRoute(principal, route, found!.facts, params.orgId);
}

/** Whether the route's rule needs the path's team or organization: facts a token read alone does not give. */
export function needsMembershipFacts(route: Pick<ApiRoute, 'membership'>): boolean {
  return route.membership !== 'none' && route.membership !== 'self';
}

/**
 * The check for a principal some earlier check of the same request established (the MCP
 * POST's): scope, and a rule that needs no facts. Only for a route that does not
 * `needsMembershipFacts`; the others need authorizeApiRequest's read.
 */
export function authorizePrincipal(principal: AccessPrincipal, route: Pick<ApiRoute, 'scope' | 'membership' | 'alsoNeeds'>): AccessGranted | AccessDenial {
  if (needsMembershipFacts(route)) throw new Error(`a ${route.membership} route needs the path's facts: use authorizeApiRequest`);
  return decideRoute(principal, route, {}, undefined);
}

/** Scope, then membership, once the token is known good. */
function decideRoute(principal: AccessPrincipal, route: Pick<ApiRoute, 'scope' | 'membership' | 'alsoNeeds'>, facts: AccessFacts, pathOrgId: string | undefined): AccessGranted | AccessDenial {
  if (route.scope === 'public') return { ok: true, principal, facts };
  const denial =
    outsideTeamToken(principal, route) ??
    (principal.organizationId === undefined ? null : outsideOrganization(principal.organizationId, route, facts, pathOrgId)) ??
    scopeDenial(principal, route.scope) ??
    (route.alsoNeeds === undefined ? null : scopeDenial(principal, route.alsoNeeds)) ??
    membershipDenial(principal, route, facts, pathOrgId);
  return denial ?? { ok: true, principal, facts };
}

/**
 * docs/rules.md#team-authorization: a team's token on a route of no team is refused as such
 * before its scopes are looked at, since no scope it could be given would let it through.
 */
function outsideTeamToken(principal: AccessPrincipal, route: Pick<ApiRoute, 'membership'>): AccessDenial | null {
  const teamId = principal.teamId;
  if (teamId === undefined || route.membership === 'team-member' || route.membership === 'team-admin') return null;
  return { status: 403, code: 'forbidden', message: `this token acts for the team ${teamId}, so it reaches only that team's routes (/v2/teams/${teamId}/… and /v2/organizations/{orgId}/teams/${teamId}/…): this route needs a token a user authorized for themselves` };
}

/**
 * docs/rules.md#enterprise-managed-reach: a token an organization's identity provider granted
 * acts for its member within that organization only: another organization's routes, and the
 * routes of a team outside it, are refused as such before its scopes are looked at, whatever
 * the member's roles there. A team that does not exist, or is not in the organization of the
 * path, is left to the route's own 404.
 */
function outsideOrganization(organizationId: string, route: Pick<ApiRoute, 'membership'>, facts: AccessFacts, pathOrgId: string | undefined): AccessDenial | null {
  if (pathOrgId !== undefined && pathOrgId !== organizationId) {
    return {
      status: 403,
      code: 'forbidden',
      message: `this token acts for the organization ${organizationId}, so it reaches only that organization's routes (/v2/organizations/${organizationId}/…), its teams' and its member's own: this route needs a token the member authorized for themselves, or one an identity provider of this route's organization granted`,
    };
  }
  // Under its own organization's path, a team of another is that route's 404 (decideMembership).
  if (pathOrgId === undefined && (route.membership === 'team-member' || route.membership === 'team-admin') && facts.team != null && facts.team.organizationId !== organizationId) {
    return teamOutsideOrganization(organizationId);
  }
  return null;
}

function teamOutsideOrganization(organizationId: string): AccessDenial {
  return { status: 403, code: 'forbidden', message: `this token acts for the organization ${organizationId} and reaches no team outside it` };
}

/** The route's membership rule for a user's token; a team's token answers to its own (teamTokenDenial). */
function membershipDenial(principal: AccessPrincipal, route: Pick<ApiRoute, 'membership'>, facts: AccessFacts, pathOrgId: string | undefined): AccessDenial | null {
  return principal.teamId === undefined ? decideMembership(route, facts, pathOrgId) : teamTokenDenial(principal.teamId, facts, pathOrgId);
}

/**
 * docs/rules.md#team-authorization: a token that acts for a team reaches that team's routes
 * only, and only while the person who authorized it is still an owner or admin of the team
 * (or of its organization), which is more than any team route asks of a member.
 */
function teamTokenDenial(teamId: string, facts: AccessFacts, pathOrgId: string | undefined): AccessDenial | null {
  // A team that does not exist (there) is the route's own 404.
  const asAdmin = decideMembership({ membership: 'team-admin' }, facts, pathOrgId);
  if (asAdmin?.status === 404) return asAdmin;
  if (facts.team?.id !== teamId) return { status: 403, code: 'forbidden', message: `this token acts for the team ${teamId} and reaches no other team` };
  if (asAdmin !== null) {
    return { status: 403, code: 'forbidden', message: `the person who authorized this application for the team ${teamId} is no longer an owner or admin of it: one of its owners or admins must authorize it again` };
  }
  return null;
}

function scopeDenial(principal: AccessPrincipal, required: string): AccessDenial | null {
  if (grantSatisfies(principal.scopes, required)) return null;
  return { status: 403, code: 'insufficient_scope', scope: required, message: `this endpoint needs the ${required} scope, which the token was not granted` };
}

/** The part of a booking that decides who may change it. */
export interface BookingOwnership {
  hostId: string | null;
  teamId: string | null;
}

/** Answered for a booking the caller has no part in: the very answer an unknown uid gets. */
export const UNKNOWN_BOOKING: AccessDenial = { status: 404, code: 'not_found', message: 'no such booking' };

/**
 * docs/rules.md#public-booking: a public booking write (cancel, reschedule) without the booker's
 * manageToken acts through the access token, as the booking write of the booking's family
 * would (docs/rules.md#membership-rules): BOOKING_WRITE for a personal booking the token's user hosts;
 * TEAM_BOOKING_WRITE (or ORG_BOOKING_WRITE, docs/rules.md#scope-checks) of a team admin or owner, or
 * of an admin or owner of the team's organization, for a team booking. A booking the user
 * has no part in is 404 before any scope is looked at, so neither answer tells a stranger
 * that it exists. One storage read: the token with the booking team's facts.
 */
export async function authorizeBookingWrite(
  store: ApiAccessStore,
  clock: () => number,
  credentials: PresentedCredentials,
  booking: BookingOwnership,
  audience: Audience,
): Promise<AccessGranted | AccessDenial> {
  const parsed = parseBearer(credentials.authorization);
  if (!parsed.ok) return { status: 401, code: parsed.reason === 'missing' ? 'unauthorized' : 'invalid_token', message: parsed.description };
  const found = await store.findAccess(hashToken(parsed.token), booking.teamId === null ? {} : { teamId: booking.teamId });
  const checked = checkAccessRecord(clock, found?.token, audience);
  if (!checked.ok) return invalidToken(checked.description, parsed.scheme === 'DPoP' ? { error: 'invalid_token' } : undefined);
  const sender = await senderDenial(credentials, audience, clock, parsed, found!.token);
  if (sender !== undefined) return sender;
  const { principal } = checked;
  const facts = found!.facts;
  // docs/rules.md#team-authorization: a team's token has a part in its team's bookings only.
  if (principal.teamId !== undefined && booking.teamId !== principal.teamId) return UNKNOWN_BOOKING;
  if (booking.teamId === null) {
    if (booking.hostId !== principal.userId) return UNKNOWN_BOOKING;
    return scopeDenial(principal, 'BOOKING_WRITE') ?? { ok: true, principal, facts };
  }
  const team = facts.team;
  const takesPart = team != null && (team.role !== null || (team.organizationId !== null && isAdmin(team.organizationRole)));
  // A team's token takes part in its team's bookings; whether its approver still may is asked below.
  if (!takesPart && principal.teamId === undefined) return UNKNOWN_BOOKING;
  // docs/rules.md#enterprise-managed-reach: an identity provider's token takes part in its organization's teams only.
  if (principal.organizationId !== undefined && team?.organizationId !== principal.organizationId) return teamOutsideOrganization(principal.organizationId);
  const denial = scopeDenial(principal, 'TEAM_BOOKING_WRITE') ?? membershipDenial(principal, { membership: 'team-admin' }, facts, undefined);
  return denial ?? { ok: true, principal, facts };
}
