// ProfileStore (src/platform/me/store.ts) over the users table.
import type { Selectable } from 'kysely';
import type { Profile, ProfileStore } from '../../../platform/me/store.ts';
import { prepare } from '../../prepared.ts';
import type { Executor } from '../../repositories/executor.ts';
import type { UsersTable } from '../../schema.ts';

/** The user fields every view of a user shows: the profile, an organization's users. */
export function publicUserFields(u: Pick<Selectable<UsersTable>, 'id' | 'email' | 'name' | 'username' | 'time_zone' | 'week_start' | 'time_format'>) {
  return { id: u.id, email: u.email, name: u.name, username: u.username, timeZone: u.time_zone, weekStart: u.week_start, timeFormat: u.time_format };
}

/** GET /v2/me reads this on every call: compiled once (prepared.ts), as the access read is. */
const selectProfile = prepare((db, p: { userId: string }) =>
  db
    .selectFrom('users')
    // docs/rules.md#profile: the address change waiting for the user, in the same read.
    .leftJoin('email_change_requests as e', 'e.user_id', 'users.id')
    .select(['id', 'users.email', 'name', 'username', 'time_zone', 'week_start', 'time_format', 'default_schedule_id', 'organization_id', 'bio', 'avatar_url', 'locale', 'metadata'])
    .select(['e.email as pending_email', 'e.expires_at as pending_expires_at'])
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
          bio: u.bio,
          avatarUrl: u.avatar_url,
          locale: u.locale,
          metadata: JSON.parse(u.metadata) as Profile['metadata'],
          ...(u.pending_email === null ? {} : { pendingEmail: { email: u.pending_email, expiresAt: Number(u.pending_expires_at) } }),
        }
      );
    },
  };
}
