// ConnectedAppStore (src/platform/connected-apps/store.ts) over the connected_apps repository.
import type { ConnectedApp, ConnectedAppStore } from '../../../platform/connected-apps/store.ts';
import { isUniqueViolation } from '../../errors.ts';
import * as repo from '../../repositories/connected-apps.ts';
import type { Executor } from '../../repositories/executor.ts';

const toApp = (r: repo.ConnectedAppRow): ConnectedApp => ({
  id: r.id,
  owner: r.user_id !== null ? { userId: r.user_id } : { teamId: r.team_id! },
  app: r.app,
  category: r.category,
  account: r.account,
  name: r.name,
  readOnly: r.read_only === 1,
  createdAt: r.created_at,
});

const toRow = (a: ConnectedApp): repo.ConnectedAppRow => ({
  id: a.id,
  user_id: 'userId' in a.owner ? a.owner.userId : null,
  team_id: 'teamId' in a.owner ? a.owner.teamId : null,
  app: a.app,
  category: a.category,
  account: a.account,
  name: a.name,
  read_only: a.readOnly ? 1 : 0,
  created_at: a.createdAt,
});

export function createConnectedAppStore(db: Executor): ConnectedAppStore {
  return {
    insertAll: async (apps) => {
      try {
        await repo.insertConnectedApps(db, apps.map(toRow));
        return true;
      } catch (error) {
        if (isUniqueViolation(error)) return false;
        throw error;
      }
    },
    list: async (owner, filter) => (await repo.listConnectedApps(db, owner, filter)).map(toApp),
    findAccount: async (owner, app, account) => {
      const row = await repo.findConnectedAccount(db, owner, app, account);
      return row && toApp(row);
    },
    delete: (owner, app, id) => repo.deleteConnectedApp(db, owner, app, id),
  };
}
