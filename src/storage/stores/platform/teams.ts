// TeamStore and ProfileStore (src/platform/teams/store.ts, profiles.ts) over the organizations
// repository and the users table.
import type { Selectable, Updateable } from 'kysely';
import type { ProfileStore } from '../../../platform/me/store.ts';
import type { Team, TeamChanges, TeamStore } from '../../../platform/teams/store.ts';
import { isUniqueViolation } from '../../errors.ts';
import { prepare } from '../../prepared.ts';
import type { Executor } from '../../repositories/executor.ts';
import * as repo from '../../repositories/organizations.ts';
import type { TeamsTable, UsersTable } from '../../schema.ts';

const toTeam = (t: repo.TeamRow): Team => ({
  id: t.id,
  organizationId: t.organization_id,
  name: t.name,
  slug: t.slug,
  bio: t.bio,
  timeZone: t.time_zone,
  brandColor: t.brand_color,
  createdAt: t.created_at,
  updatedAt: t.updated_at,
});

const teamColumns = (c: TeamChanges): Updateable<TeamsTable> => ({
  ...(c.name !== undefined ? { name: c.name } : {}),
  ...(c.slug !== undefined ? { slug: c.slug } : {}),
  ...(c.bio !== undefined ? { bio: c.bio } : {}),
  ...(c.timeZone !== undefined ? { time_zone: c.timeZone } : {}),
  ...(c.brandColor !== undefined ? { brand_color: c.brandColor } : {}),
  updated_at: c.updatedAt,
});

export function createTeamStore(db: Executor): TeamStore {
  return {
    find: async (id) => {
      const row = await repo.findTeam(db, id);
      return row && toTeam(row);
    },
    update: async (id, changes) => {
      try {
        const row = await repo.updateTeam(db, id, teamColumns(changes));
        return row && toTeam(row);
      } catch (error) {
        if (isUniqueViolation(error)) return 'slugTaken';
        throw error;
      }
    },
    delete: (id) => repo.deleteTeam(db, id),
    listOfOrganization: async (organizationId, limit, offset) => (await repo.listTeamsOfOrganization(db, organizationId, limit, offset)).map(toTeam),
  };
}

/** The user fields every view of a user shows: the profile, an organization's users. */
export function publicUserFields(u: Pick<Selectable<UsersTable>, 'id' | 'email' | 'name' | 'username' | 'time_zone' | 'week_start' | 'time_format'>) {
  return { id: u.id, email: u.email, name: u.name, username: u.username, timeZone: u.time_zone, weekStart: u.week_start, timeFormat: u.time_format };
}

/** GET /v2/me reads this on every call: compiled once (prepared.ts), as the access read is. */
const selectProfile = prepare((db, p: { userId: string }) =>
  db
    .selectFrom('users')
    .select(['id', 'email', 'name', 'username', 'time_zone', 'week_start', 'time_format', 'default_schedule_id', 'organization_id'])
    .where('id', '=', p.userId),
);

export function createProfileStore(db: Executor): ProfileStore {
  return {
    find: async (userId) => {
      const [u] = (await selectProfile.run(db, { userId })).rows;
      return (
        u && {
          ...publicUserFields(u),
          defaultScheduleId: u.default_schedule_id,
          organizationId: u.organization_id,
        }
      );
    },
    update: async (userId, c) => {
      await db
        .updateTable('users')
        .set({
          ...(c.name !== undefined ? { name: c.name } : {}),
          ...(c.timeZone !== undefined ? { time_zone: c.timeZone } : {}),
          ...(c.weekStart !== undefined ? { week_start: c.weekStart } : {}),
          ...(c.timeFormat !== undefined ? { time_format: c.timeFormat } : {}),
          updated_at: c.updatedAt,
        })
        .where('id', '=', userId)
        .execute();
    },
  };
}
