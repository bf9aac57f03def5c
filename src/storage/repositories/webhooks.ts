// webhooks of a user or an organization (seed §2.3 WEBHOOK_*, ORG_WEBHOOK_*).
import type { Insertable, Selectable, Updateable } from 'kysely';
import type { WebhooksTable } from '../schema.ts';
import type { WebhookOwner } from '../../services/webhooks/subscriptions.ts';
import type { Executor } from './executor.ts';

export type WebhookRow = Selectable<WebhooksTable>;
export type { WebhookOwner };

const col = (owner: WebhookOwner) => ('userId' in owner ? (['user_id', owner.userId] as const) : (['organization_id', owner.organizationId] as const));

export async function insertWebhook(db: Executor, row: Insertable<WebhooksTable>): Promise<void> {
  await db.insertInto('webhooks').values(row).execute();
}

export async function findWebhook(db: Executor, owner: WebhookOwner, id: string): Promise<WebhookRow | undefined> {
  const [column, value] = col(owner);
  return db.selectFrom('webhooks').selectAll().where('id', '=', id).where(column, '=', value).executeTakeFirst();
}

export async function listWebhooks(db: Executor, owner: WebhookOwner, limit: number, offset: number): Promise<WebhookRow[]> {
  const [column, value] = col(owner);
  return db.selectFrom('webhooks').selectAll().where(column, '=', value).orderBy('created_at').orderBy('id').limit(limit).offset(offset).execute();
}

export async function updateWebhook(db: Executor, owner: WebhookOwner, id: string, changes: Updateable<WebhooksTable>): Promise<WebhookRow | undefined> {
  const [column, value] = col(owner);
  await db.updateTable('webhooks').set(changes).where('id', '=', id).where(column, '=', value).execute();
  return findWebhook(db, owner, id);
}

export async function deleteWebhook(db: Executor, owner: WebhookOwner, id: string): Promise<boolean> {
  const [column, value] = col(owner);
  const result = await db.deleteFrom('webhooks').where('id', '=', id).where(column, '=', value).executeTakeFirst();
  return Number(result.numDeletedRows) === 1;
}
