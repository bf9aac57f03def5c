// ConnectedAppStore (src/platform/connected-apps/store.ts) on Kysely: calendars, ICS feeds and
// team apps a user or team has connected (stored records; Gatehouse calls no outside calendar
// service).
import { sql, type Selectable } from 'kysely';
import type { AppOwner, ConnectedApp, ConnectedAppStore, NewConnectedApp } from '../../../platform/connected-apps/store.ts';
import { isUniqueViolation } from '../../errors.ts';
import type { Executor } from '../../repositories/executor.ts';
import type { ConnectedAppsTable } from '../../schema.ts';

type ConnectedAppRow = Selectable<ConnectedAppsTable>;

const toApp = (r: ConnectedAppRow): ConnectedApp => ({
  id: r.id,
  owner: r.user_id !== null ? { userId: r.user_id } : { teamId: r.team_id! },
  app: r.app,
  category: r.category,
  account: r.account,
  name: r.name,
  readOnly: r.read_only === 1,
  createdAt: r.created_at,
  selected: r.selected === 1,
  destination: r.destination === 1,
});

const toRow = (a: NewConnectedApp): ConnectedAppRow => ({
  id: a.id,
  user_id: 'userId' in a.owner ? a.owner.userId : null,
  team_id: 'teamId' in a.owner ? a.owner.teamId : null,
  app: a.app,
  category: a.category,
  account: a.account,
  name: a.name,
  read_only: a.readOnly ? 1 : 0,
  created_at: a.createdAt,
  selected: 0,
  destination: 0,
});

const ownerColumn = (owner: AppOwner) => ('userId' in owner ? (['user_id', owner.userId] as const) : (['team_id', owner.teamId] as const));

export function createConnectedAppStore(db: Executor): ConnectedAppStore {
  const ofOwner = (owner: AppOwner) => {
    const [column, value] = ownerColumn(owner);
    return db.selectFrom('connected_apps').selectAll().where(column, '=', value);
  };
  return {
    insertAll: async (apps) => {
      if (apps.length === 0) return true;
      try {
        await db.insertInto('connected_apps').values(apps.map(toRow)).execute();
        return true;
      } catch (error) {
        if (isUniqueViolation(error)) return false;
        throw error;
      }
    },
    list: async (owner, filter = {}) => {
      let q = ofOwner(owner);
      if (filter.category !== undefined) q = q.where('category', '=', filter.category);
      if (filter.app !== undefined) q = q.where('app', '=', filter.app);
      return (await q.orderBy('created_at').orderBy('id').limit(500).execute()).map(toApp);
    },
    find: async (owner, id, filter = {}) => {
      let q = ofOwner(owner).where('id', '=', id);
      if (filter.category !== undefined) q = q.where('category', '=', filter.category);
      if (filter.app !== undefined) q = q.where('app', '=', filter.app);
      const row = await q.executeTakeFirst();
      return row && toApp(row);
    },
    findAccount: async (owner, app, account) => {
      const row = await ofOwner(owner).where('app', '=', app).where('account', '=', account).executeTakeFirst();
      return row && toApp(row);
    },
    delete: async (owner, app, id) => {
      const [column, value] = ownerColumn(owner);
      const result = await db.deleteFrom('connected_apps').where('id', '=', id).where(column, '=', value).where('app', '=', app).executeTakeFirst();
      return Number(result.numDeletedRows) === 1;
    },
    defaultOf: async (userId) => {
      const row = await db
        .selectFrom('conferencing_defaults')
        .innerJoin('connected_apps', 'connected_apps.id', 'conferencing_defaults.connected_app_id')
        .selectAll('connected_apps')
        .where('conferencing_defaults.user_id', '=', userId)
        .executeTakeFirst();
      return row && toApp(row);
    },
    // One statement: the connection is checked to be the user's by the same insert that
    // names it, so a connection removed meanwhile cannot become a default.
    setDefault: async (userId, id, at) => {
      const result = await db
        .insertInto('conferencing_defaults')
        .columns(['user_id', 'connected_app_id', 'updated_at'])
        .expression((eb) =>
          eb
            .selectFrom('connected_apps')
            .select([sql<string>`cast(${userId} as text)`.as('user_id'), 'id', sql<number>`cast(${at} as bigint)`.as('updated_at')])
            .where('id', '=', id)
            .where('user_id', '=', userId),
        )
        .onConflict((oc) => oc.column('user_id').doUpdateSet((eb) => ({ connected_app_id: eb.ref('excluded.connected_app_id'), updated_at: eb.ref('excluded.updated_at') })))
        .executeTakeFirst();
      return Number(result.numInsertedOrUpdatedRows ?? 0) === 1;
    },
    setSelected: async (userId, id, selected) => {
      const result = await db.updateTable('connected_apps').set({ selected: selected ? 1 : 0 }).where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },
    setDestination: async (userId, id) => {
      const mine = await db.selectFrom('connected_apps').select('id').where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
      if (mine === undefined) return false;
      // The old one first: the partial unique index allows one destination per user at every row.
      await db.updateTable('connected_apps').set({ destination: 0 }).where('user_id', '=', userId).where('destination', '=', 1).where('id', '<>', id).execute();
      await db.updateTable('connected_apps').set({ destination: 1 }).where('id', '=', id).where('user_id', '=', userId).execute();
      return true;
    },
  };
}
