// InviteLinkStore (services/teams/store.ts) over team_invite_links.
import type { Kysely } from 'kysely';
import type { InviteLinkStore } from '../../services/teams/store.ts';
import type { Database } from '../schema.ts';

export function createInviteLinkStore(db: Kysely<Database>): InviteLinkStore {
  return {
    insert: async (l) => {
      await db
        .insertInto('team_invite_links')
        .values({ token_hash: l.tokenHash, team_id: l.teamId, created_by: l.createdBy, expires_at: l.expiresAt, created_at: l.createdAt })
        .execute();
    },
    findLive: async (tokenHash, now) => {
      const r = await db
        .selectFrom('team_invite_links as l')
        .innerJoin('teams as t', 't.id', 'l.team_id')
        .leftJoin('organizations as o', 'o.id', 't.organization_id')
        .select(['l.token_hash', 'l.team_id', 'l.created_by', 'l.expires_at', 'l.created_at', 't.name as team_name', 'o.name as org_name'])
        .where('l.token_hash', '=', tokenHash)
        .where('l.expires_at', '>', now)
        .executeTakeFirst();
      if (r === undefined) return undefined;
      return {
        tokenHash: r.token_hash,
        teamId: r.team_id,
        createdBy: r.created_by,
        expiresAt: Number(r.expires_at),
        createdAt: Number(r.created_at),
        teamName: r.team_name,
        teamOrgName: r.org_name,
      };
    },
  };
}
