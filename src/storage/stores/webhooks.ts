// WebhookStore (src/services/webhooks/subscriptions.ts) over the webhooks repository.
import type { Updateable } from 'kysely';
import type { Webhook, WebhookChanges, WebhookStore } from '../../services/webhooks/subscriptions.ts';
import type { Executor } from '../repositories/executor.ts';
import * as repo from '../repositories/webhooks.ts';
import type { WebhooksTable } from '../schema.ts';

const toWebhook = (w: repo.WebhookRow): Webhook => ({
  id: w.id,
  ownerId: w.user_id,
  organizationId: w.organization_id,
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

export function createWebhookStore(db: Executor): WebhookStore {
  const one = (row: repo.WebhookRow | undefined) => row && toWebhook(row);
  return {
    insert: (w, secret) =>
      repo.insertWebhook(db, {
        id: w.id,
        user_id: w.ownerId,
        organization_id: w.organizationId,
        subscriber_url: w.subscriberUrl,
        triggers: JSON.stringify(w.triggers),
        active: w.active ? 1 : 0,
        payload_template: w.payloadTemplate,
        secret,
        disabled_reason: w.disabledReason,
        created_at: w.createdAt,
        updated_at: w.updatedAt,
      }),
    find: async (owner, id) => one(await repo.findWebhook(db, owner, id)),
    list: async (owner, limit, offset) => (await repo.listWebhooks(db, owner, limit, offset)).map(toWebhook),
    update: async (owner, id, changes) => one(await repo.updateWebhook(db, owner, id, changeColumns(changes))),
    delete: (owner, id) => repo.deleteWebhook(db, owner, id),
  };
}
