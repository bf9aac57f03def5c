// Organizations, teams and memberships (SPEC §4 CLI, §5, §6): shared by the API and the
// gatehouse command. Every creation writes the resource and its owner's membership together.
import { randomId } from '../../oauth/token-format.ts';
import { isUniqueViolation } from '../../storage/errors.ts';
import * as repo from '../../storage/repositories/organizations.ts';
import type { MembershipRow, MembershipTarget, OrganizationRow, TeamRow } from '../../storage/repositories/organizations.ts';
import { inTransaction } from '../../storage/transaction.ts';
import type { ServiceContext } from '../context.ts';
import { conflict, notFound, validation } from '../errors.ts';
import { isTimeZone } from '../time-zones.ts';

export type Role = MembershipRow['role'];
export const ROLES: readonly Role[] = ['member', 'admin', 'owner'];

const SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
const COLOR = /^#[0-9a-fA-F]{6}$/;

function checkName(name: string): string {
  const trimmed = name.trim();
  if (trimmed === '' || trimmed.length > 100) throw validation('name must be 1-100 characters', 'name');
  return trimmed;
}

/** A slug from the name plus a short random suffix, so two "Sales" teams can coexist. */
function slugFor(name: string): string {
  const base = name.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 48) || 'team';
  return `${base}-${randomId(4).toLowerCase()}`;
}

export function checkSlug(slug: string): string {
  if (!SLUG.test(slug) || slug.length > 64) throw validation('slug must be 1-64 lower-case letters, digits and single dashes', 'slug');
  return slug;
}

export function checkRole(role: string): Role {
  if (!(ROLES as readonly string[]).includes(role)) throw validation(`role must be member, admin or owner, not "${role}"`, 'role');
  return role as Role;
}

async function requireUser(ctx: ServiceContext, userId: string): Promise<void> {
  const user = await ctx.db.selectFrom('users').select('id').where('id', '=', userId).executeTakeFirst();
  if (user === undefined) throw notFound(`no user ${userId}`);
}

export async function createOrganization(ctx: ServiceContext, input: { name: string; ownerId: string }): Promise<OrganizationRow> {
  const name = checkName(input.name);
  await requireUser(ctx, input.ownerId);
  const now = ctx.clock();
  const row: OrganizationRow = { id: randomId(), name, slug: slugFor(name), created_at: now, updated_at: now };
  await inTransaction(ctx.db, async (trx) => {
    await repo.insertOrganization(trx, row);
    await insertMember(trx, { organizationId: row.id }, input.ownerId, 'owner', now);
  });
  return row;
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

export async function createTeam(ctx: ServiceContext, input: NewTeam): Promise<TeamRow> {
  const name = checkName(input.name);
  checkTeamFields(input);
  const slug = input.slug !== undefined ? checkSlug(input.slug) : slugFor(name);
  await requireUser(ctx, input.ownerId);
  const organizationId = input.organizationId ?? null;
  if (organizationId !== null && (await repo.findOrganization(ctx.db, organizationId)) === undefined) {
    throw notFound(`no organization ${organizationId}`);
  }
  const now = ctx.clock();
  const row: TeamRow = {
    id: randomId(),
    organization_id: organizationId,
    name,
    slug,
    bio: input.bio ?? '',
    time_zone: input.timeZone ?? 'UTC',
    brand_color: input.brandColor ?? '#292929',
    created_at: now,
    updated_at: now,
  };
  try {
    await inTransaction(ctx.db, async (trx) => {
      await repo.insertTeam(trx, row);
      await insertMember(trx, { teamId: row.id }, input.ownerId, 'owner', now);
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw conflict(`a team with slug "${slug}" already exists`, 'slug');
    throw error;
  }
  return row;
}

/**
 * Writes an accepted membership (the caller's transaction keeps it with its other writes).
 * An accepted invitation passes its own id, so the id the inviter got names the membership.
 */
export async function insertMember(db: ServiceContext['db'], target: MembershipTarget, userId: string, role: Role, now: number, id: string = randomId()): Promise<MembershipRow> {
  const row: MembershipRow = {
    id,
    user_id: userId,
    team_id: 'teamId' in target ? target.teamId : null,
    organization_id: 'organizationId' in target ? target.organizationId : null,
    role,
    created_at: now,
    updated_at: now,
  };
  await repo.insertMembership(db, row);
  // GET /v2/me reports the user's organization (SPEC §6): the first one they join.
  if (row.organization_id !== null) {
    await db.updateTable('users').set({ organization_id: row.organization_id, updated_at: now }).where('id', '=', userId).where('organization_id', 'is', null).execute();
  }
  return row;
}

export const kindOf = (target: MembershipTarget) => ('teamId' in target ? 'team' : 'organization');

/**
 * Adds a user to a team or an organization at once, as an accepted member: the operator's
 * `gatehouse members add` (SPEC §2 item 23). The API invites instead (invitations.ts).
 */
export async function addMember(ctx: ServiceContext, target: MembershipTarget, userId: string, role: string): Promise<MembershipRow> {
  const checked = checkRole(role);
  await requireUser(ctx, userId);
  if ('teamId' in target && (await repo.findTeam(ctx.db, target.teamId)) === undefined) throw notFound(`no team ${target.teamId}`);
  if ('organizationId' in target && (await repo.findOrganization(ctx.db, target.organizationId)) === undefined) {
    throw notFound(`no organization ${target.organizationId}`);
  }
  try {
    return await inTransaction(ctx.db, (trx) => insertMember(trx, target, userId, checked, ctx.clock()));
  } catch (error) {
    if (isUniqueViolation(error)) throw conflict(`that user is already a member of this ${kindOf(target)}`, 'user');
    throw error;
  }
}

/** Removes a membership; an organization's users stop reporting it as theirs. */
export async function removeMember(ctx: ServiceContext, membership: MembershipRow): Promise<void> {
  await inTransaction(ctx.db, async (trx) => {
    await repo.deleteMembership(trx, membership.id);
    if (membership.organization_id !== null) {
      await trx.updateTable('users').set({ organization_id: null, updated_at: ctx.clock() }).where('id', '=', membership.user_id).where('organization_id', '=', membership.organization_id).execute();
    }
  });
}

/**
 * Runs a change that may take an owner away, with the owner count checked under the team's
 * (or organization's) row lock: two concurrent demotions or departures cannot both pass.
 */
export function keepingAnOwner<T>(ctx: ServiceContext, target: MembershipTarget, losesOwner: boolean, refusal: string, change: (trx: ServiceContext['db']) => Promise<T>): Promise<T> {
  return inTransaction(ctx.db, async (trx) => {
    await repo.lockMembershipTarget(trx, target, ctx.clock());
    if (losesOwner && (await repo.countOwners(trx, target)) <= 1) throw conflict(refusal);
    return change(trx);
  });
}

export const targetOf = (m: { team_id: string | null; organization_id: string | null }): MembershipTarget =>
  m.team_id !== null ? { teamId: m.team_id } : { organizationId: m.organization_id! };

/**
 * The user leaves a team or organization (SPEC §2 item 23): always possible, except for
 * its last owner. The role is read again under the lock, so a promotion that lands
 * meanwhile is counted.
 */
export async function leave(ctx: ServiceContext, userId: string, membershipId: string): Promise<MembershipRow> {
  const found = await ctx.db.selectFrom('memberships').selectAll().where('id', '=', membershipId).where('user_id', '=', userId).executeTakeFirst();
  if (found === undefined) throw notFound('you are not a member there: you may have left already');
  const target = targetOf(found);
  return inTransaction(ctx.db, async (trx) => {
    await repo.lockMembershipTarget(trx, target, ctx.clock());
    const current = await trx.selectFrom('memberships').selectAll().where('id', '=', membershipId).where('user_id', '=', userId).executeTakeFirst();
    if (current === undefined) throw notFound('you are not a member there: you may have left already');
    if (current.role === 'owner' && (await repo.countOwners(trx, target)) <= 1) {
      throw conflict(`you are the last owner of this ${kindOf(target)}: make another member an owner before you leave`);
    }
    await removeMember({ ...ctx, db: trx }, current);
    return current;
  });
}
