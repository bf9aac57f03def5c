// InviteLinkStore (services/teams/store.ts) over team_invite_links: each read answers a link
// with where it stands now (its maker's roles, its grant), so the service decides whether it
// still works from one read (docs/rules.md#invite-links).
import type { Kysely, Selectable } from 'kysely';
import type { InviteLink, InviteLinkStanding, InviteLinkStore } from '../../services/teams/store.ts';
import type { Database, MembershipsTable, TeamInviteLinksTable } from '../schema.ts';

type Role = Selectable<MembershipsTable>['role'];

/** The links with their team, the maker's memberships of it and of its organization, and their grant. */
function standingQuery(db: Kysely<Database>) {
  return db
    .selectFrom('team_invite_links as l')
    .innerJoin('teams as t', 't.id', 'l.team_id')
    .leftJoin('memberships as tm', (j) => j.onRef('tm.team_id', '=', 'l.team_id').onRef('tm.user_id', '=', 'l.created_by'))
    .leftJoin('memberships as om', (j) => j.onRef('om.organization_id', '=', 't.organization_id').onRef('om.user_id', '=', 'l.created_by'))
    .leftJoin('grants as g', 'g.id', 'l.grant_id')
    .selectAll('l')
    .select(['t.name as team_name', 'tm.role as maker_team_role', 'om.role as maker_org_role', 'g.revoked_at as grant_revoked_at']);
}

type StandingRow = Selectable<TeamInviteLinksTable> & { maker_team_role: Role | null; maker_org_role: Role | null; grant_revoked_at: number | string | null };

const toLink = (r: StandingRow): InviteLink & InviteLinkStanding => ({
  id: r.id,
  tokenHash: r.token_hash,
  teamId: r.team_id,
  createdBy: r.created_by,
  grantId: r.grant_id,
  expiresAt: Number(r.expires_at),
  createdAt: Number(r.created_at),
  makerTeamRole: r.maker_team_role,
  makerOrgRole: r.maker_org_role,
  grantRevoked: r.grant_revoked_at !== null,
});

export function createInviteLinkStore(db: Kysely<Database>): InviteLinkStore {
  return {
    insert: async (l) => {
      await db
        .insertInto('team_invite_links')
        .values({ id: l.id, token_hash: l.tokenHash, team_id: l.teamId, created_by: l.createdBy, grant_id: l.grantId, expires_at: l.expiresAt, created_at: l.createdAt })
        .execute();
    },
    findLive: async (tokenHash, now) => {
      const r = await standingQuery(db)
        .leftJoin('organizations as o', 'o.id', 't.organization_id')
        .select('o.name as org_name')
        .where('l.token_hash', '=', tokenHash)
        .where('l.expires_at', '>', now)
        .executeTakeFirst();
      return r && { ...toLink(r), teamName: r.team_name, teamOrgName: r.org_name };
    },
    listLive: async (teamId, now, limit) => {
      const rows = await standingQuery(db)
        .leftJoin('users as u', 'u.id', 'l.created_by')
        .leftJoin('oauth_clients as c', 'c.id', 'g.client_id')
        .select(['u.name as maker_name', 'c.name as client_name'])
        .where('l.team_id', '=', teamId)
        .where('l.expires_at', '>', now)
        .orderBy('l.created_at', 'desc')
        .orderBy('l.id', 'desc')
        .limit(limit)
        .execute();
      return rows.map((r) => ({ ...toLink(r), makerName: r.maker_name, clientName: r.client_name }));
    },
    delete: async (teamId, id) => {
      const result = await db.deleteFrom('team_invite_links').where('team_id', '=', teamId).where('id', '=', id).executeTakeFirst();
      return Number(result.numDeletedRows) === 1;
    },
  };
}
