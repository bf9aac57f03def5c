// TeamStore and InvitationStore (services/teams/store.ts) over organizations, teams,
// memberships, membership_invitations and team_departures.
import type { Kysely, Selectable, Updateable } from 'kysely';
import type { Invitation, InvitationStore, Member, Membership, Organization, Team, TeamChanges, TeamStore } from '../../services/teams/store.ts';
import { isUniqueViolation } from '../errors.ts';
import { appendAudit } from '../repositories/audit.ts';
import { activeTeamGrants, revokeGrant } from '../repositories/grants.ts';
import { notifyClient } from './webhook-deliveries.ts';
import * as invitations from '../repositories/invitations.ts';
import { inTransaction } from '../transaction.ts';
import * as repo from '../repositories/organizations.ts';
import type { Database, MembershipInvitationsTable, MembershipsTable, OrganizationsTable, TeamsTable } from '../schema.ts';

const toOrganization = (r: Selectable<OrganizationsTable>): Organization => ({ id: r.id, name: r.name, slug: r.slug, createdAt: r.created_at, updatedAt: r.updated_at });

const toTeam = (r: Selectable<TeamsTable>): Team => ({
  id: r.id,
  organizationId: r.organization_id,
  name: r.name,
  slug: r.slug,
  bio: r.bio,
  timeZone: r.time_zone,
  brandColor: r.brand_color,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

const teamColumns = (c: TeamChanges): Updateable<TeamsTable> => ({
  ...(c.name !== undefined ? { name: c.name } : {}),
  ...(c.slug !== undefined ? { slug: c.slug } : {}),
  ...(c.bio !== undefined ? { bio: c.bio } : {}),
  ...(c.timeZone !== undefined ? { time_zone: c.timeZone } : {}),
  ...(c.brandColor !== undefined ? { brand_color: c.brandColor } : {}),
  updated_at: c.updatedAt,
});

const toMembership = (r: Selectable<MembershipsTable>): Membership => ({
  id: r.id,
  userId: r.user_id,
  teamId: r.team_id,
  organizationId: r.organization_id,
  role: r.role,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

const toInvitation = (r: Selectable<MembershipInvitationsTable>): Invitation => ({
  id: r.id,
  teamId: r.team_id,
  organizationId: r.organization_id,
  email: r.email,
  userId: r.user_id,
  role: r.role,
  invitedBy: r.invited_by,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

/** Inserts the row unless a unique index already holds its key; true when it was written. */
async function insertUnlessTaken<T extends 'teams' | 'memberships' | 'membership_invitations'>(db: Kysely<Database>, table: T, row: Selectable<Database[T]>): Promise<boolean> {
  // ON CONFLICT DO NOTHING: a duplicate leaves the caller's transaction usable (PostgreSQL).
  const result = await db.insertInto(table).values(row as never).onConflict((oc) => oc.doNothing()).executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) === 1;
}

export function createTeamStore(db: Kysely<Database>): TeamStore {
  return {
    insertOrganization: (o) => repo.insertOrganization(db, { id: o.id, name: o.name, slug: o.slug, created_at: o.createdAt, updated_at: o.updatedAt }),
    findOrganization: async (id) => {
      const row = await repo.findOrganization(db, id);
      return row && toOrganization(row);
    },
    insertTeam: (t) =>
      insertUnlessTaken(db, 'teams', {
        id: t.id,
        organization_id: t.organizationId,
        name: t.name,
        slug: t.slug,
        bio: t.bio,
        time_zone: t.timeZone,
        brand_color: t.brandColor,
        created_at: t.createdAt,
        updated_at: t.updatedAt,
      }),
    findTeam: async (id) => {
      const row = await repo.findTeam(db, id);
      return row && toTeam(row);
    },
    findTeams: async (ids) => (await repo.findTeams(db, [...new Set(ids)])).map(toTeam),
    updateTeam: async (id, changes) => {
      try {
        const row = await repo.updateTeam(db, id, teamColumns(changes));
        return row && toTeam(row);
      } catch (error) {
        if (isUniqueViolation(error)) return 'slugTaken';
        throw error;
      }
    },
    // docs/rules.md#team-authorization: the team's grants end with it, in the same transaction,
    // and each application is told (docs/rules.md#client-events) as a user's revocation tells it.
    deleteTeam: (id, actorId, at) =>
      inTransaction(db, async (trx) => {
        // The team's row first, as an authorization being granted for it holds it
        // (OAuthStore.holdTeamAuthority): its grant is then either seen here or refused there.
        await repo.lockMembershipTarget(trx, { teamId: id }, at);
        const grants = await activeTeamGrants(trx, id);
        for (const g of grants) {
          await revokeGrant(trx, g.id, at);
          await appendAudit(trx, { type: 'grant.revoked', actorId, clientId: g.clientId, userId: g.userId, data: { grantId: g.id, teamId: id, reason: 'team deleted' } }, at);
        }
        const byClient = new Map<string, string[]>();
        for (const g of grants) byClient.set(g.clientId, [...(byClient.get(g.clientId) ?? []), g.id]);
        for (const [clientId, grantIds] of byClient) await notifyClient(trx, clientId, 'authorization.revoked', { teamId: id, grantIds, revokedBy: 'team_deleted' }, at);
        return repo.deleteTeam(trx, id);
      }),
    listTeamsOfOrganization: async (organizationId, limit, offset) => (await repo.listTeamsOfOrganization(db, organizationId, limit, offset)).map(toTeam),
    listTeamsOfUser: async (userId, filter, limit, offset) => (await repo.listTeamsOfUser(db, userId, filter.organizationId, limit, offset)).map(toTeam),
    listOrganizations: async (limit) => (await repo.listOrganizations(db, limit)).map((r) => ({ ...toOrganization(r), members: r.members, teams: r.teams })),
    listTeams: async (filter, limit) =>
      (await repo.listTeams(db, filter.organizationId, limit)).map((r) => ({ ...toTeam(r), organizationName: r.organization_name, members: r.members })),
    listMembers: async (target, limit) => (await repo.listMembers(db, target, limit)).map((r) => ({ ...toMembership(r), email: r.email, name: r.name })),
    listMembersOfTeams: async (teamIds, limit) => {
      const unique = [...new Set(teamIds)];
      const members = new Map<string, Member[]>(unique.map((id) => [id, []]));
      for (const r of await repo.listMembersOfTeams(db, unique, limit)) members.get(r.team_id!)!.push({ ...toMembership(r), email: r.email, name: r.name });
      return members;
    },
    insertMembership: (m) =>
      insertUnlessTaken(db, 'memberships', {
        id: m.id,
        user_id: m.userId,
        team_id: m.teamId,
        organization_id: m.organizationId,
        role: m.role,
        created_at: m.createdAt,
        updated_at: m.updatedAt,
      }),
    findMembershipOfUser: async (target, userId) => {
      const row = await repo.findMemberByUser(db, target, userId);
      return row && toMembership(row);
    },
    findMembershipByEmail: async (target, email) => {
      const row = await repo.findMemberByEmail(db, target, email);
      return row && toMembership(row);
    },
    findUsersMembership: async (membershipId, userId) => {
      const row = await db.selectFrom('memberships').selectAll().where('id', '=', membershipId).where('user_id', '=', userId).executeTakeFirst();
      return row && toMembership(row);
    },
    listMembershipsOfUser: async (userId) =>
      (await repo.listMembershipsOfUser(db, userId)).map((r) => ({ ...toMembership(r), targetName: r.target_name, teamOrgName: r.team_org_name, teamOrgId: r.team_org_id ?? null, owners: r.owners })),
    lockTarget: (target, at) => repo.lockMembershipTarget(db, target, at),
    countOwners: (target) => repo.countOwners(db, target),
    setMembershipRole: (id, role, at) => repo.setMembershipRole(db, id, role, at),
    deleteMembership: (id) => repo.deleteMembership(db, id),
    recordDeparture: async (m, at) => {
      await db
        .insertInto('team_departures')
        .values({ membership_id: m.id, team_id: m.teamId, user_id: m.userId, left_at: at })
        .onConflict((c) => c.column('membership_id').doNothing())
        .execute();
    },
    departedSince: async (teamId, userId, since) => {
      const r = await db.selectFrom('team_departures').select('membership_id').where('team_id', '=', teamId).where('user_id', '=', userId).where('left_at', '>=', since).limit(1).executeTakeFirst();
      return r !== undefined;
    },
  };
}

export function createInvitationStore(db: Kysely<Database>): InvitationStore {
  return {
    insert: (i) =>
      insertUnlessTaken(db, 'membership_invitations', {
        id: i.id,
        team_id: i.teamId,
        organization_id: i.organizationId,
        email: i.email,
        user_id: i.userId,
        role: i.role,
        invited_by: i.invitedBy,
        created_at: i.createdAt,
        updated_at: i.updatedAt,
      }),
    listFor: async (answerer) =>
      (await invitations.listInvitationsFor(db, answerer)).map((r) => ({ ...toInvitation(r), targetName: r.target_name, teamOrgName: r.team_org_name, inviterName: r.inviter_name })),
    take: async (id, answerer) => {
      const row = await invitations.takeInvitation(db, id, answerer);
      return row && toInvitation(row);
    },
    deleteAllFor: (target, answerer) => invitations.deleteInvitationsFor(db, target, answerer),
  };
}
