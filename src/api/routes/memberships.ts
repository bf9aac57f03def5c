// Team memberships (TEAM_MEMBERSHIP_*), organization memberships and users (ORG_MEMBERSHIP_*).
// Only owners grant, change or remove the owner role, and the last owner cannot leave.
import type { AppContext } from '../../http/context.ts';
import type { AccessFacts } from '../../oauth/api-access.ts';
import { addMember, removeMember, type Role } from '../../services/teams.ts';
import { findUserByEmail } from '../../services/users.ts';
import * as repo from '../../storage/repositories/organizations.ts';
import { inTransaction } from '../../storage/transaction.ts';
import type { MemberRow, MembershipTarget } from '../../storage/repositories/organizations.ts';
import { route, type HandlerMap } from '../handler.ts';
import { conflict, forbidden, invalid, iso, notFound } from '../input.ts';
import { arrayOf, deleted, email, idParam, listQuery, nullable, object, role, type JsonSchema, type Page } from '../schemas.ts';
import { isOrgOwner, isTeamOwner } from './access.ts';
import { userFields } from './me.ts';
import { profile, profileChanges, profilePatch, profileView, type ProfilePatch } from './me.ts';

const membershipView: JsonSchema = object(
  {
    id: { type: 'string' },
    userId: { type: 'string' },
    teamId: nullable({ type: 'string' }),
    organizationId: nullable({ type: 'string' }),
    role: { type: 'string' },
    user: object({ email: { type: 'string' }, name: { type: 'string' }, username: { type: 'string' } }, ['email', 'name', 'username']),
    createdAt: { type: 'string' },
    updatedAt: { type: 'string' },
  },
  ['id', 'userId', 'teamId', 'organizationId', 'role', 'user', 'createdAt', 'updatedAt'],
);

function membership(m: MemberRow) {
  return {
    id: m.id,
    userId: m.user_id,
    teamId: m.team_id,
    organizationId: m.organization_id,
    role: m.role,
    user: { email: m.email, name: m.name, username: m.username },
    createdAt: iso(m.created_at),
    updatedAt: iso(m.updated_at),
  };
}

const userView: JsonSchema = object({ ...userFields, role: { type: 'string' } }, [...Object.keys(userFields), 'role']);

interface NewMembership {
  userId?: string;
  email?: string;
  role: Role;
}

const newMembership = object({ userId: idParam, email, role }, ['role']);
const rolePatch = object({ role }, ['role']);

type Kind = 'team' | 'organization';
const targetOf = (kind: Kind, facts: AccessFacts): MembershipTarget =>
  kind === 'team' ? { teamId: facts.team!.id } : { organizationId: facts.organization!.id };
const actsAsOwner = (kind: Kind, facts: AccessFacts) => (kind === 'team' ? isTeamOwner(facts) : isOrgOwner(facts));

export function membershipHandlers(ctx: AppContext): HandlerMap {
  const { db, clock } = ctx.services;

  const load = async (target: MembershipTarget, id: string) => {
    const row = await repo.findMember(db, target, id);
    if (row === undefined) throw notFound('membership');
    return row;
  };

  const requireOwnerFor = (kind: Kind, facts: AccessFacts, touchesOwner: boolean) => {
    if (touchesOwner && !actsAsOwner(kind, facts)) throw forbidden(`only an owner of the ${kind} may grant, change or remove the owner role`);
  };

  /**
   * Runs a change that may take an owner away, with the owner count checked under the
   * team's (or organization's) row lock: two concurrent demotions cannot both pass.
   */
  const keepingAnOwner = <T>(target: MembershipTarget, kind: Kind, losesOwner: boolean, change: (trx: typeof db) => Promise<T>) =>
    inTransaction(db, async (trx) => {
      await repo.lockMembershipTarget(trx, target, clock());
      if (losesOwner && (await repo.countOwners(trx, target)) <= 1) {
        throw conflict(`the ${kind} must keep at least one owner: make someone else owner first`);
      }
      return change(trx);
    });

  const handlers = (kind: Kind) => ({
    list: route<unknown, Page>({
      query: listQuery(),
      data: arrayOf(membershipView, 0, 100),
      handle: async ({ facts, query }) => (await repo.listMembers(db, targetOf(kind, facts), query.limit, query.offset)).map(membership),
    }),
    create: route<NewMembership>({
      body: newMembership,
      data: membershipView,
      status: 201,
      handle: async ({ facts, body }) => {
        if ((body.userId === undefined) === (body.email === undefined)) throw invalid('userId', 'give exactly one of userId and email');
        requireOwnerFor(kind, facts, body.role === 'owner');
        let userId = body.userId;
        if (body.email !== undefined) {
          const user = await findUserByEmail(ctx.services, body.email);
          if (user === undefined) throw notFound(`user with email ${body.email}`);
          userId = user.id;
        }
        const target = targetOf(kind, facts);
        const row = await addMember(ctx.services, target, userId!, body.role);
        return membership(await load(target, row.id));
      },
    }),
    get: route<unknown, unknown, { membershipId: string }>({
      data: membershipView,
      handle: async ({ facts, params }) => membership(await load(targetOf(kind, facts), params.membershipId)),
    }),
    update: route<{ role: Role }, unknown, { membershipId: string }>({
      body: rolePatch,
      data: membershipView,
      handle: async ({ facts, params, body }) => {
        const target = targetOf(kind, facts);
        const current = await load(target, params.membershipId);
        requireOwnerFor(kind, facts, current.role === 'owner' || body.role === 'owner');
        await keepingAnOwner(target, kind, current.role === 'owner' && body.role !== 'owner', (trx) =>
          repo.setMembershipRole(trx, current.id, body.role, clock()),
        );
        return membership(await load(target, current.id));
      },
    }),
    delete: route<unknown, unknown, { membershipId: string }>({
      data: deleted,
      handle: async ({ facts, params }) => {
        const target = targetOf(kind, facts);
        const current = await load(target, params.membershipId);
        requireOwnerFor(kind, facts, current.role === 'owner');
        await keepingAnOwner(target, kind, current.role === 'owner', (trx) => removeMember({ ...ctx.services, db: trx }, current));
        return { id: current.id, deleted: true };
      },
    }),
  });

  const team = handlers('team');
  const org = handlers('organization');
  return {
    'teamMemberships.list': team.list,
    'teamMemberships.create': team.create,
    'teamMemberships.get': team.get,
    'teamMemberships.update': team.update,
    'teamMemberships.delete': team.delete,
    'orgMemberships.list': org.list,
    'orgMemberships.create': org.create,
    'orgMemberships.update': org.update,
    'orgMemberships.delete': org.delete,
    'orgUsers.list': route<unknown, Page>({
      query: listQuery(),
      data: arrayOf(userView, 0, 100),
      handle: async ({ facts, query }) =>
        (await repo.listOrganizationUsers(db, facts.organization!.id, query.limit, query.offset)).map((u) => ({
          id: u.id,
          email: u.email,
          name: u.name,
          username: u.username,
          timeZone: u.time_zone,
          weekStart: u.week_start,
          timeFormat: u.time_format,
          role: u.role,
        })),
    }),
    'orgUsers.update': route<ProfilePatch, unknown, { userId: string }>({
      body: profilePatch,
      data: profileView,
      handle: async ({ facts, params, body }) => {
        const member = await repo.findMemberByUser(db, { organizationId: facts.organization!.id }, params.userId);
        if (member === undefined) throw notFound('user in this organization');
        await db.updateTable('users').set(profileChanges(body, clock())).where('id', '=', params.userId).execute();
        const user = await db.selectFrom('users').selectAll().where('id', '=', params.userId).executeTakeFirstOrThrow();
        return profile(user);
      },
    }),
  };
}
