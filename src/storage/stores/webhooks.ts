// WebhookStore (src/services/webhooks/subscriptions.ts) on Kysely: the webhooks of a user, an
// organization or an event type.
import type { Selectable, Updateable } from 'kysely';
import type { Webhook, WebhookChanges, WebhookOwner, WebhookStore } from '../../services/webhooks/subscriptions.ts';
import type { Executor } from '../repositories/executor.ts';
import type { WebhooksTable } from '../schema.ts';

type WebhookRow = Selectable<WebhooksTable>;

const toWebhook = (w: WebhookRow): Webhook => ({
  id: w.id,
  ownerId: w.user_id,
  organizationId: w.organization_id,
  eventTypeId: w.event_type_id,
  subscriberUrl: w.subscriber_url,
  triggers: JSON.parse(w.triggers) as string[],
  active: w.active === 1,
  payloadTemplate: w.payload_template,
  disabledReason: w.disabled_reason,
  createdAt: w.created_at,
  updatedAt: w.updated_at,
});

const changeColumns = (c: WebhookChanges): Updateable<WebhooksTable> => ({
  ...(c.subscriberUrl !== undefined ? { subscriber_url: c.subscriberUrl } : {}),
  ...(c.triggers !== undefined ? { triggers: JSON.stringify(c.triggers) } : {}),
  ...(c.active !== undefined ? { active: c.active ? 1 : 0 } : {}),
  ...(c.active === true ? { disabled_reason: null, failing_since: null } : {}),
  ...(c.payloadTemplate !== undefined ? { payload_template: c.payloadTemplate } : {}),
  updated_at: c.updatedAt,
});

const ownerColumn = (owner: WebhookOwner) =>
  'userId' in owner
    ? (['user_id', owner.userId] as const)
    : 'organizationId' in owner
      ? (['organization_id', owner.organizationId] as const)
      : (['event_type_id', owner.eventTypeId] as const);

export function createWebhookStore(db: Executor): WebhookStore {
  const one = (row: WebhookRow | undefined) => row && toWebhook(row);
  const ofOwner = (owner: WebhookOwner) => {
    const [column, value] = ownerColumn(owner);
    return db.selectFrom('webhooks').selectAll().where(column, '=', value);
  };
  const find = async (owner: WebhookOwner, id: string) => one(await ofOwner(owner).where('id', '=', id).executeTakeFirst());
  return {
    insert: async (w, secret) => {
      await db
        .insertInto('webhooks')
        .values({
          id: w.id,
          user_id: w.ownerId,
          organization_id: w.organizationId,
          event_type_id: w.eventTypeId,
          subscriber_url: w.subscriberUrl,
          triggers: JSON.stringify(w.triggers),
          active: w.active ? 1 : 0,
          payload_template: w.payloadTemplate,
          secret,
          disabled_reason: w.disabledReason,
          created_at: w.createdAt,
          updated_at: w.updatedAt,
        })
        .execute();
    },
    find,
    list: async (owner, limit, offset) => (await ofOwner(owner).orderBy('created_at').orderBy('id').limit(limit).offset(offset).execute()).map(toWebhook),
    update: async (owner, id, changes) => {
      const [column, value] = ownerColumn(owner);
      await db.updateTable('webhooks').set(changeColumns(changes)).where('id', '=', id).where(column, '=', value).execute();
      return find(owner, id);
    },
    delete: async (owner, id) => {
      const [column, value] = ownerColumn(owner);
      const result = await db.deleteFrom('webhooks').where('id', '=', id).where(column, '=', value).executeTakeFirst();
      return Number(result.numDeletedRows) === 1;
    },
    deleteAll: async (owner) => {
      const [column, value] = ownerColumn(owner);
      const result = await db.deleteFrom('webhooks').where(column, '=', value).executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  };
}
