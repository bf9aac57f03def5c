// Organizations, teams and memberships (docs/rules.md#cli, docs/rules.md#data, docs/rules.md#membership-rules): shared by the API and the
// gatehouse command. Every creation writes the resource and its owner's membership together.
import { isTeamSlug } from '../../oauth/team-slug.ts';
import { randomId } from '../../oauth/token-format.ts';
import type { ServiceContext } from '../context.ts';
import { conflict, notFound, validation } from '../errors.ts';
import type { ServiceStores } from '../stores.ts';
import { isTimeZone } from '../time-zones.ts';
import type { Member, Membership, MembershipOfUser, MembershipTarget, Organization, OrganizationSummary, Role, Team, TeamChanges, TeamSummary } from './store.ts';
import { refuseHiddenCharacters } from '../names.ts';
import type { Actor } from '../actors.ts';
import { revokeOnDeparture } from '../identity-providers/agent-access.ts';

export type { Member, Membership, MembershipTarget, Organization, OrganizationSummary, Role, Team, TeamSummary } from './store.ts';
export const ROLES: readonly Role[] = ['member', 'admin', 'owner'];

/** An admin or owner: who may change a team or an organization (docs/rules.md#membership-rules). */
export function isAdmin(role: Role | null | undefined): boolean {
  return role === 'admin' || role === 'owner';
}

const COLOR = /^#[0-9a-fA-F]{6}$/;

/** A team's or an organization's name, on creation and on every rename. */
export function checkTeamName(name: string): string {
  const trimmed = name.trim();
  refuseHiddenCharacters(trimmed);
  if (trimmed === '' || trimmed.length > 100) throw validation('name must be 1-100 characters', 'name');
  return trimmed;
}

/** A slug from the name plus a short random suffix, so two "Sales" teams can coexist. */
function slugFor(name: string): string {
  const base = name.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 48) || 'team';
  return `${base}-${randomId(4).toLowerCase()}`;
}

export function checkSlug(slug: string): string {
  if (!isTeamSlug(slug)) throw validation('slug must be 1-64 lower-case letters, digits and single dashes', 'slug');
  return slug;
}

export function checkRole(role: string): Role {
  if (!(ROLES as readonly string[]).includes(role)) throw validation(`role must be member, admin or owner, not "${role}"`, 'role');
  return role as Role;
}

async function requireUser(ctx: ServiceContext, userId: string): Promise<void> {
  if ((await ctx.stores.users.findById(userId)) === undefined) throw notFound(`no user ${userId}`);
}

/**
 * With an `actor` (the operator's `gatehouse orgs create`), audited as `organization.created`
 * about its owner in the same transaction (docs/rules.md#audit-events); seeding is nobody's act.
 */
export async function createOrganization(ctx: ServiceContext, input: { name: string; ownerId: string }, actor?: Actor): Promise<Organization> {
  const name = checkTeamName(input.name);
  await requireUser(ctx, input.ownerId);
  const now = ctx.clock();
  const organization: Organization = { id: await ctx.stores.ids.next('teams'), name, slug: slugFor(name), createdAt: now, updatedAt: now };
  await ctx.stores.transaction(async (tx) => {
    await tx.teams.insertOrganization(organization);
    await insertMember(tx, { organizationId: organization.id }, input.ownerId, 'owner', now);
    if (actor !== undefined) await tx.audit.append({ type: 'organization.created', ...actor, userId: input.ownerId, data: { organizationId: organization.id } }, now);
  });
  return organization;
}

export interface NewTeam {
  name: string;
  ownerId: string;
  organizationId?: string | null;
  slug?: string;
  bio?: string;
  timeZone?: string;
  brandColor?: string;
}

export function checkTeamFields(input: { bio?: string; timeZone?: string; brandColor?: string }): void {
  if (input.bio !== undefined && input.bio.length > 1000) throw validation('bio must be at most 1000 characters', 'bio');
  if (input.timeZone !== undefined && !isTimeZone(input.timeZone)) throw validation(`timeZone "${input.timeZone}" is not an IANA time zone such as Europe/Berlin`, 'timeZone');
  if (input.brandColor !== undefined && !COLOR.test(input.brandColor)) throw validation('brandColor must be a color such as #1a2b3c', 'brandColor');
}

/**
 * With an `actor` (a user through the API, the operator's `gatehouse teams create`), audited
 * as `team.created` about its owner in the same transaction (docs/rules.md#audit-events);
 * seeding is nobody's act.
 */
export async function createTeam(ctx: ServiceContext, input: NewTeam, actor?: Actor): Promise<Team> {
  const name = checkTeamName(input.name);
  checkTeamFields(input);
  const slug = input.slug !== undefined ? checkSlug(input.slug) : slugFor(name);
  await requireUser(ctx, input.ownerId);
  const organizationId = input.organizationId ?? null;
  if (organizationId !== null && (await ctx.stores.teams.findOrganization(organizationId)) === undefined) {
    throw notFound(`no organization ${organizationId}`);
  }
  const now = ctx.clock();
  const team: Team = {
    id: await ctx.stores.ids.next('teams'),
    organizationId,
    name,
    slug,
    bio: input.bio ?? '',
    timeZone: input.timeZone ?? 'UTC',
    brandColor: input.brandColor ?? '#292929',
    createdAt: now,
    updatedAt: now,
  };
  await ctx.stores.transaction(async (tx) => {
    if (!(await tx.teams.insertTeam(team))) throw conflict(`a team with slug "${slug}" already exists`, 'slug');
    await insertMember(tx, { teamId: team.id }, input.ownerId, 'owner', now);
    if (actor !== undefined) await tx.audit.append({ type: 'team.created', ...actor, userId: input.ownerId, data: { teamId: team.id, organizationId } }, now);
  });
  return team;
}

/** What a team's profile routes may change (PATCH /v2/teams/:teamId). */
export type TeamProfileChanges = Partial<Pick<NewTeam, 'name' | 'slug' | 'bio' | 'timeZone' | 'brandColor'>>;

/**
 * Changes a team's profile, at its own address or its organization's, with the checks a new
 * team passes: a rename takes checkTeamName as creation does, so a team's token cannot give
 * the team a name that creating it would have refused.
 */
export async function updateTeamProfile(ctx: ServiceContext, teamId: string, input: TeamProfileChanges): Promise<Team> {
  checkTeamFields(input);
  const changes: TeamChanges = {
    ...(input.name !== undefined ? { name: checkTeamName(input.name) } : {}),
    ...(input.slug !== undefined ? { slug: checkSlug(input.slug) } : {}),
    ...(input.bio !== undefined ? { bio: input.bio } : {}),
    ...(input.timeZone !== undefined ? { timeZone: input.timeZone } : {}),
    ...(input.brandColor !== undefined ? { brandColor: input.brandColor } : {}),
    updatedAt: ctx.clock(),
  };
  const saved = await ctx.stores.teams.updateTeam(teamId, changes);
  if (saved === 'slugTaken') throw conflict(`slug: a team with slug "${input.slug}" already exists`, 'slug');
  if (saved === undefined) throw notFound(`no team ${teamId}`);
  return saved;
}

export const kindOf = (target: MembershipTarget) => ('teamId' in target ? 'team' : 'organization');

/**
 * Writes an accepted membership (the caller's transaction keeps it with its other writes).
 * An accepted invitation passes its own id, so the id the inviter got names the membership.
 * Throws a conflict when the user is a member there already.
 */
export async function insertMember(tx: ServiceStores, target: MembershipTarget, userId: string, role: Role, now: number, id?: string): Promise<Membership> {
  const membership: Membership = {
    id: id ?? (await tx.ids.next('memberships')),
    userId,
    teamId: 'teamId' in target ? target.teamId : null,
    organizationId: 'organizationId' in target ? target.organizationId : null,
    role,
    createdAt: now,
    updatedAt: now,
  };
  if (!(await tx.teams.insertMembership(membership))) throw conflict(`that user is already a member of this ${kindOf(target)}`, 'user');
  // GET /v2/me reports the user's organization (docs/rules.md#profile): the first one they join.
  if (membership.organizationId !== null) await tx.users.setOrganizationIfNone(userId, membership.organizationId, now);
  return membership;
}

/**
 * Refuses an unknown team or organization, naming it. Teams and organizations take their ids
 * from one series, so the first team is seldom 1: an id of the other kind says so.
 */
async function requireTarget(ctx: ServiceContext, target: MembershipTarget): Promise<void> {
  const sharedSeries = '(organizations and teams share one series of ids)';
  if ('teamId' in target && (await ctx.stores.teams.findTeam(target.teamId)) === undefined) {
    const organization = await ctx.stores.teams.findOrganization(target.teamId);
    throw notFound(`no team ${target.teamId}${organization ? `: ${target.teamId} is the organization ${organization.name} ${sharedSeries}` : ''}`);
  }
  if ('organizationId' in target && (await ctx.stores.teams.findOrganization(target.organizationId)) === undefined) {
    const team = await ctx.stores.teams.findTeam(target.organizationId);
    throw notFound(`no organization ${target.organizationId}${team ? `: ${target.organizationId} is the team ${team.name} ${sharedSeries}` : ''}`);
  }
}

/** How a message names a target: `team ID` or `organization ID`. */
export const targetName = (target: MembershipTarget) => ('teamId' in target ? `team ${target.teamId}` : `organization ${target.organizationId}`);

/**
 * Adds a user to a team or an organization at once, as an accepted member: the operator's
 * `gatehouse members add` (docs/rules.md#membership-invitations), audited as `membership.added`
 * under `actorId` when one is given (seeding, as the benchmark and the tests' fixtures do, is
 * nobody's act). The API invites instead (invitations.ts).
 */
export async function addMember(ctx: ServiceContext, target: MembershipTarget, userId: string, role: string, actorId?: string): Promise<Membership> {
  const checked = checkRole(role);
  await requireUser(ctx, userId);
  await requireTarget(ctx, target);
  return ctx.stores.transaction(async (tx) => {
    const now = ctx.clock();
    const membership = await insertMember(tx, target, userId, checked, now);
    if (actorId !== undefined) await tx.audit.append({ type: 'membership.added', actorId, userId, data: { ...target, role: checked } }, now);
    return membership;
  });
}

/**
 * Removes the member with this address from a team or an organization: the operator's
 * `gatehouse members remove`, audited as `membership.removed` under `actorId`. The last owner
 * stays (docs/rules.md#membership-rules), checked under the target's lock as `leave` does.
 */
export async function removeMemberByEmail(ctx: ServiceContext, target: MembershipTarget, email: string, actorId: string): Promise<Membership> {
  await requireTarget(ctx, target);
  const address = email.trim().toLowerCase();
  if (address === '') throw validation('the email is empty: give the email of a member', 'email');
  return ctx.stores.transaction(async (tx) => {
    const now = ctx.clock();
    const removed = await removeKeepingAnOwner(tx, target, now, {
      find: () => tx.teams.findMembershipByEmail(target, address),
      gone: () => notFound(`${address} is not a member of ${targetName(target)}`),
      lastOwner: `${address} is the last owner of ${targetName(target)}: make another member an owner before removing them`,
    });
    await tx.audit.append({ type: 'membership.removed', actorId, userId: removed.userId, data: { ...target, role: removed.role } }, now);
    return removed;
  });
}

/**
 * Under the target's row lock: reads the membership again (a promotion or a departure that
 * landed meanwhile is seen), refuses to take the last owner away, and removes it.
 */
async function removeKeepingAnOwner(
  tx: ServiceStores,
  target: MembershipTarget,
  now: number,
  rules: { find: () => Promise<Membership | undefined>; gone: () => Error; lastOwner: string },
): Promise<Membership> {
  await tx.teams.lockTarget(target, now);
  const current = await rules.find();
  if (current === undefined) throw rules.gone();
  if (current.role === 'owner' && (await tx.teams.countOwners(target)) <= 1) throw conflict(rules.lastOwner);
  await removeMember(tx, current, now);
  return current;
}

/** The most a list of the operator's returns at once. */
export const LIST_LIMIT_MAX = 10_000;

function checkLimit(limit: number): number {
  if (!Number.isInteger(limit) || limit < 1 || limit > LIST_LIMIT_MAX) throw validation(`limit must be a whole number from 1 to ${LIST_LIMIT_MAX}`, 'limit');
  return limit;
}

/** Every organization, oldest first (at most `limit`): `gatehouse orgs list`. */
export function listOrganizations(ctx: ServiceContext, limit: number): Promise<OrganizationSummary[]> {
  return ctx.stores.teams.listOrganizations(checkLimit(limit));
}

/** Every team, or an existing organization's, oldest first (at most `limit`): `gatehouse teams list`. */
export async function listTeams(ctx: ServiceContext, filter: { organizationId?: string }, limit: number): Promise<TeamSummary[]> {
  checkLimit(limit);
  if (filter.organizationId !== undefined) await requireTarget(ctx, { organizationId: filter.organizationId });
  return ctx.stores.teams.listTeams(filter, limit);
}

/** An existing team's or organization's members, oldest first (at most `limit`): `gatehouse members list`. */
export async function listMembers(ctx: ServiceContext, target: MembershipTarget, limit: number): Promise<Member[]> {
  checkLimit(limit);
  await requireTarget(ctx, target);
  return ctx.stores.teams.listMembers(target, limit);
}

/**
 * Removes a membership, left or removed; an organization's users stop reporting it as theirs,
 * and what its identity providers granted for the member ends with it
 * (docs/integrating.md#enterprise-managed-agents); the end of a team's is recorded, so that no
 * invite link made before it brings the user back (docs/rules.md#invite-links).
 */
export async function removeMember(stores: ServiceStores, membership: Pick<Membership, 'id' | 'userId' | 'teamId' | 'organizationId'>, now: number): Promise<void> {
  await stores.transaction(async (tx) => {
    await tx.teams.deleteMembership(membership.id);
    if (membership.organizationId !== null) {
      await tx.users.clearOrganization(membership.userId, membership.organizationId, now);
      await revokeOnDeparture(tx, membership.organizationId, membership.userId, now);
    }
    if (membership.teamId !== null) await tx.teams.recordDeparture({ id: membership.id, teamId: membership.teamId, userId: membership.userId }, now);
  });
}

/**
 * The team, if the user may administer it (docs/rules.md#membership-rules): an owner or admin
 * of it or of its organization. Undefined for anyone else, and when there is no such team.
 */
export async function teamAdministeredBy(stores: ServiceStores, teamId: string, userId: string): Promise<Team | undefined> {
  const team = await stores.teams.findTeam(teamId);
  if (team === undefined) return undefined;
  if (isAdmin((await stores.teams.findMembershipOfUser({ teamId }, userId))?.role)) return team;
  if (team.organizationId !== null && isAdmin((await stores.teams.findMembershipOfUser({ organizationId: team.organizationId }, userId))?.role)) return team;
  return undefined;
}

/**
 * The organization, if the user is one of its owners: who manages its identity providers
 * (docs/integrating.md#enterprise-managed-agents). Undefined for anyone else, admins included,
 * and when there is no such organization.
 */
export async function organizationOwnedBy(stores: ServiceStores, organizationId: string, userId: string): Promise<Organization | undefined> {
  const organization = await stores.teams.findOrganization(organizationId);
  if (organization === undefined) return undefined;
  return (await stores.teams.findMembershipOfUser({ organizationId }, userId))?.role === 'owner' ? organization : undefined;
}

/**
 * Runs a change that may take an owner away, with the owner count checked under the team's
 * (or organization's) row lock: two concurrent demotions or departures cannot both pass.
 */
export function keepingAnOwner<T>(ctx: ServiceContext, target: MembershipTarget, losesOwner: boolean, refusal: string, change: (tx: ServiceStores) => Promise<T>): Promise<T> {
  return ctx.stores.transaction(async (tx) => {
    await tx.teams.lockTarget(target, ctx.clock());
    if (losesOwner && (await tx.teams.countOwners(target)) <= 1) throw conflict(refusal);
    return change(tx);
  });
}

/** The user's teams and organizations, with how many owners each has (at most 500, oldest first). */
export function listMembershipsOfUser(ctx: ServiceContext, userId: string): Promise<MembershipOfUser[]> {
  return ctx.stores.teams.listMembershipsOfUser(userId);
}

export const targetOf = (m: { teamId: string | null; organizationId: string | null }): MembershipTarget =>
  m.teamId !== null ? { teamId: m.teamId } : { organizationId: m.organizationId! };

/**
 * The user leaves a team or organization (docs/rules.md#membership-invitations): always possible, except for
 * its last owner. The role is read again under the lock, so a promotion that lands
 * meanwhile is counted.
 */
export async function leave(ctx: ServiceContext, userId: string, membershipId: string): Promise<Membership> {
  const gone = () => notFound('you are not a member there: you may have left already');
  // The membership names its target, which the lock needs: found once before the transaction.
  const found = await ctx.stores.teams.findUsersMembership(membershipId, userId);
  if (found === undefined) throw gone();
  const target = targetOf(found);
  return ctx.stores.transaction((tx) =>
    removeKeepingAnOwner(tx, target, ctx.clock(), {
      find: () => tx.teams.findUsersMembership(membershipId, userId),
      gone,
      lastOwner: `you are the last owner of this ${kindOf(target)}: make another member an owner before you leave`,
    }),
  );
}
