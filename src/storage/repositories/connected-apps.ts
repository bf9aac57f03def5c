// connected_apps: calendars, ICS feeds and team apps a user or team has connected (stored
// records; Gatehouse calls no outside calendar service).
import type { Insertable, Selectable } from 'kysely';
import type { ConnectedAppsTable } from '../schema.ts';
import type { Executor } from './executor.ts';

export type ConnectedAppRow = Selectable<ConnectedAppsTable>;
export type AppOwner = { userId: string } | { teamId: string };

const col = (owner: AppOwner) => ('userId' in owner ? (['user_id', owner.userId] as const) : (['team_id', owner.teamId] as const));

export async function insertConnectedApps(db: Executor, rows: Insertable<ConnectedAppsTable>[]): Promise<void> {
  if (rows.length > 0) await db.insertInto('connected_apps').values(rows).execute();
}

export async function listConnectedApps(db: Executor, owner: AppOwner, filter: { category?: string; app?: string } = {}): Promise<ConnectedAppRow[]> {
  const [column, value] = col(owner);
  let q = db.selectFrom('connected_apps').selectAll().where(column, '=', value);
  if (filter.category !== undefined) q = q.where('category', '=', filter.category);
  if (filter.app !== undefined) q = q.where('app', '=', filter.app);
  return q.orderBy('created_at').orderBy('id').limit(500).execute();
}

export async function findConnectedAccount(db: Executor, owner: AppOwner, app: string, account: string): Promise<ConnectedAppRow | undefined> {
  const [column, value] = col(owner);
  return db.selectFrom('connected_apps').selectAll().where(column, '=', value).where('app', '=', app).where('account', '=', account).executeTakeFirst();
}

export async function deleteConnectedApp(db: Executor, owner: AppOwner, app: string, id: string): Promise<boolean> {
  const [column, value] = col(owner);
  const result = await db.deleteFrom('connected_apps').where('id', '=', id).where(column, '=', value).where('app', '=', app).executeTakeFirst();
  return Number(result.numDeletedRows) === 1;
}
