// UserStore and SessionStore (services/accounts/store.ts) over the users and sessions tables.
import type { Insertable, Kysely, Selectable } from 'kysely';
import type { NewNotice, NewSession, NoticeStore, ProfileChanges, SessionStore, User, UserStore } from '../../services/accounts/store.ts';
import type { Database, UsersTable } from '../schema.ts';

export function toUser(row: Selectable<UsersTable>): User {
  return {
    id: row.id,
    email: row.email,
    name: row.name,
    username: row.username,
    passwordHash: row.password_hash,
    isAdmin: row.is_admin === 1,
    timeZone: row.time_zone,
    weekStart: row.week_start,
    timeFormat: row.time_format,
    defaultScheduleId: row.default_schedule_id,
    organizationId: row.organization_id,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    createdByOrganizationId: row.created_by_organization_id,
  };
}

function fromUser(user: User): Insertable<UsersTable> {
  return {
    id: user.id,
    email: user.email,
    name: user.name,
    username: user.username,
    password_hash: user.passwordHash,
    is_admin: user.isAdmin ? 1 : 0,
    time_zone: user.timeZone,
    week_start: user.weekStart,
    time_format: user.timeFormat,
    default_schedule_id: user.defaultScheduleId,
    organization_id: user.organizationId,
    created_at: user.createdAt,
    updated_at: user.updatedAt,
    created_by_organization_id: user.createdByOrganizationId ?? null,
  };
}

function profileColumns(changes: ProfileChanges, at: number) {
  return {
    ...(changes.name !== undefined ? { name: changes.name } : {}),
    ...(changes.timeZone !== undefined ? { time_zone: changes.timeZone } : {}),
    ...(changes.weekStart !== undefined ? { week_start: changes.weekStart } : {}),
    ...(changes.timeFormat !== undefined ? { time_format: changes.timeFormat } : {}),
    ...(changes.bio !== undefined ? { bio: changes.bio } : {}),
    ...(changes.avatarUrl !== undefined ? { avatar_url: changes.avatarUrl } : {}),
    ...(changes.locale !== undefined ? { locale: changes.locale } : {}),
    ...(changes.metadata !== undefined ? { metadata: JSON.stringify(changes.metadata) } : {}),
    updated_at: at,
  };
}

export function createUserStore(db: Kysely<Database>): UserStore {
  const findById = async (id: string) => {
    const row = await db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
    return row && toUser(row);
  };
  return {
    async insert(user) {
      // ON CONFLICT DO NOTHING: a taken email or username leaves a caller's transaction usable.
      const result = await db.insertInto('users').values(fromUser(user)).onConflict((oc) => oc.doNothing()).executeTakeFirst();
      return Number(result.numInsertedOrUpdatedRows ?? 0) === 1;
    },
    async deleteUnlessClientsOrGrants(id) {
      const client = await db.selectFrom('oauth_clients').select('id').where('owner_id', '=', id).limit(1).executeTakeFirst();
      const grant = await db.selectFrom('grants').select('id').where('user_id', '=', id).limit(1).executeTakeFirst();
      if (client !== undefined || grant !== undefined) return false;
      const result = await db.deleteFrom('users').where('id', '=', id).executeTakeFirst();
      return Number(result.numDeletedRows) === 1;
    },
    async findByEmail(email) {
      const row = await db.selectFrom('users').selectAll().where('email', '=', email).executeTakeFirst();
      return row && toUser(row);
    },
    findById,
    async findByIds(ids) {
      if (ids.length === 0) return [];
      return (await db.selectFrom('users').selectAll().where('id', 'in', ids).execute()).map(toUser);
    },
    async list(filter) {
      let query = db.selectFrom('users').selectAll().orderBy('email');
      if (filter.admins) query = query.where('is_admin', '=', 1);
      return (await query.execute()).map(toUser);
    },
    async setPasswordHash(id, passwordHash, at) {
      const result = await db.updateTable('users').set({ password_hash: passwordHash, updated_at: at }).where('id', '=', id).executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },
    async setAdmin(id, admin, at) {
      const result = await db.updateTable('users').set({ is_admin: admin ? 1 : 0, updated_at: at }).where('id', '=', id).executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },
    async updateProfile(id, changes, at) {
      await db.updateTable('users').set(profileColumns(changes, at)).where('id', '=', id).execute();
      return findById(id);
    },
    // Conditional, so a taken address is a false and not an error that would end a PostgreSQL
    // transaction; two accounts claiming one address at once still meet the unique index.
    async setEmail(id, email, at) {
      const result = await db
        .updateTable('users')
        .set({ email, updated_at: at })
        .where('id', '=', id)
        .where((eb) => eb.not(eb.exists(eb.selectFrom('users as other').select('other.id').where('other.email', '=', email).where('other.id', '!=', id))))
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },
    async putEmailChange(r) {
      const row = { user_id: r.userId, email: r.email, client_id: r.clientId, requested_at: r.requestedAt, expires_at: r.expiresAt };
      await db
        .insertInto('email_change_requests')
        .values(row)
        .onConflict((oc) => oc.column('user_id').doUpdateSet({ email: r.email, client_id: r.clientId, requested_at: r.requestedAt, expires_at: r.expiresAt }))
        .execute();
    },
    async findEmailChange(userId) {
      const row = await db
        .selectFrom('email_change_requests as e')
        .leftJoin('oauth_clients as c', 'c.id', 'e.client_id')
        .select(['e.user_id', 'e.email', 'e.client_id', 'e.requested_at', 'e.expires_at', 'c.name'])
        .where('e.user_id', '=', userId)
        .executeTakeFirst();
      return row && { userId: row.user_id, email: row.email, clientId: row.client_id, requestedAt: Number(row.requested_at), expiresAt: Number(row.expires_at), clientName: row.name ?? null };
    },
    async deleteEmailChange(userId) {
      const result = await db.deleteFrom('email_change_requests').where('user_id', '=', userId).executeTakeFirst();
      return Number(result.numDeletedRows) === 1;
    },
    async setOrganizationIfNone(userId, organizationId, at) {
      await db.updateTable('users').set({ organization_id: organizationId, updated_at: at }).where('id', '=', userId).where('organization_id', 'is', null).execute();
    },
    async clearOrganization(userId, organizationId, at) {
      await db.updateTable('users').set({ organization_id: null, updated_at: at }).where('id', '=', userId).where('organization_id', '=', organizationId).execute();
    },
  };
}

export function createSessionStore(db: Kysely<Database>): SessionStore {
  return {
    async insert(session: NewSession) {
      await db.insertInto('sessions').values({ id_hash: session.idHash, user_id: session.userId, created_at: session.createdAt, expires_at: session.expiresAt }).execute();
    },
    async findLive(idHash, now) {
      const row = await db
        .selectFrom('sessions as s')
        .innerJoin('users as u', 'u.id', 's.user_id')
        .selectAll('u')
        .select('s.created_at as authenticated_at')
        .where('s.id_hash', '=', idHash)
        .where('s.expires_at', '>', now)
        .executeTakeFirst();
      if (row === undefined) return undefined;
      const { authenticated_at, ...user } = row;
      return { user: toUser(user), createdAt: authenticated_at };
    },
    async delete(idHash) {
      await db.deleteFrom('sessions').where('id_hash', '=', idHash).execute();
    },
    async deleteForUser(userId) {
      const result = await db.deleteFrom('sessions').where('user_id', '=', userId).executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  };
}

export function createNoticeStore(db: Kysely<Database>): NoticeStore {
  return {
    async insert(notice: NewNotice) {
      await db.deleteFrom('session_notices').where('session_hash', '=', notice.sessionHash).where('expires_at', '<=', notice.createdAt).execute();
      await db
        .insertInto('session_notices')
        .values({ id: notice.id, session_hash: notice.sessionHash, sealed: notice.sealed, created_at: notice.createdAt, expires_at: notice.expiresAt })
        .execute();
    },
    async take(id, sessionHash, now) {
      const row = await db
        .deleteFrom('session_notices')
        .where('id', '=', id)
        .where('session_hash', '=', sessionHash)
        .returning(['sealed', 'expires_at'])
        .executeTakeFirst();
      return row !== undefined && Number(row.expires_at) > now ? row.sealed : undefined;
    },
  };
}
