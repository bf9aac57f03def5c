// Webhooks of a user (WEBHOOK_*) and of an organization (ORG_WEBHOOK_*). Subscriptions are
// stored; delivery is outside this service. Subscriber URLs pass the outbound-address check
// (src/services/outbound-url.ts) whenever they are set.
import type { AppContext } from '../../http/context.ts';
import type { OutboundPolicy } from '../../services/outbound-url.ts';
import { randomId } from '../../oauth/token-format.ts';
import * as repo from '../../storage/repositories/webhooks.ts';
import type { WebhookOwner, WebhookRow } from '../../storage/repositories/webhooks.ts';
import { route, type HandlerMap } from '../handler.ts';
import { checkOutbound, iso, notFound, parseJson } from '../input.ts';
import { arrayOf, bool, deleted, listQuery, nullable, object, patchOf, str, type JsonSchema, type Page } from '../schemas.ts';

export const TRIGGERS = [
  'BOOKING_CREATED',
  'BOOKING_REQUESTED',
  'BOOKING_CONFIRMED',
  'BOOKING_REJECTED',
  'BOOKING_RESCHEDULED',
  'BOOKING_CANCELLED',
  'MEETING_STARTED',
  'MEETING_ENDED',
  'FORM_SUBMITTED',
];

const webhookView: JsonSchema = object(
  {
    id: { type: 'string' },
    subscriberUrl: { type: 'string' },
    triggers: arrayOf({ type: 'string' }, 1, 20),
    active: bool,
    payloadTemplate: nullable({ type: 'string' }),
    ownerId: nullable({ type: 'string' }),
    organizationId: nullable({ type: 'string' }),
    createdAt: { type: 'string' },
    updatedAt: { type: 'string' },
  },
  ['id', 'subscriberUrl', 'triggers', 'active', 'payloadTemplate', 'ownerId', 'organizationId', 'createdAt', 'updatedAt'],
);

const webhook = (w: WebhookRow) => ({
  id: w.id,
  subscriberUrl: w.subscriber_url,
  triggers: parseJson<string[]>(w.triggers),
  active: w.active === 1,
  payloadTemplate: w.payload_template,
  ownerId: w.user_id,
  organizationId: w.organization_id,
  createdAt: iso(w.created_at),
  updatedAt: iso(w.updated_at),
});

const fields = {
  subscriberUrl: str(1, 2048),
  triggers: { ...arrayOf({ type: 'string', enum: TRIGGERS }, 1, 20), uniqueItems: true },
  active: bool,
  payloadTemplate: nullable(str(0, 10_000)),
};

interface WebhookInput {
  subscriberUrl: string;
  triggers: string[];
  active?: boolean;
  payloadTemplate?: string | null;
}

/** SPEC §9: a subscriber on a private address is refused when registered, created or moved. */
async function changes(body: Partial<WebhookInput>, now: number, outbound: OutboundPolicy) {
  return {
    ...(body.subscriberUrl !== undefined ? { subscriber_url: (await checkOutbound(body.subscriberUrl, 'subscriberUrl', outbound)).toString() } : {}),
    ...(body.triggers !== undefined ? { triggers: JSON.stringify(body.triggers) } : {}),
    ...(body.active !== undefined ? { active: body.active ? 1 : 0 } : {}),
    ...(body.payloadTemplate !== undefined ? { payload_template: body.payloadTemplate } : {}),
    updated_at: now,
  };
}

type Call = { userId: string; facts: { organization?: { id: string } | null } };

export function webhookHandlers(ctx: AppContext): HandlerMap {
  const { db, clock } = ctx.services;

  const crud = (kind: 'user' | 'organization') => {
    const owner = (c: Call): WebhookOwner => (kind === 'user' ? { userId: c.userId } : { organizationId: c.facts.organization!.id });
    const load = async (c: Call, id: string) => {
      const row = await repo.findWebhook(db, owner(c), id);
      if (row === undefined) throw notFound('webhook');
      return row;
    };
    return {
      list: route<unknown, Page>({
        query: listQuery(),
        data: arrayOf(webhookView, 0, 100),
        handle: async (c) => (await repo.listWebhooks(db, owner(c), c.query.limit, c.query.offset)).map(webhook),
      }),
      create: route<WebhookInput>({
        body: object(fields, ['subscriberUrl', 'triggers']),
        data: webhookView,
        status: 201,
        handle: async (c) => {
          const now = clock();
          const o = owner(c);
          const row: WebhookRow = {
            id: randomId(),
            user_id: 'userId' in o ? o.userId : null,
            organization_id: 'organizationId' in o ? o.organizationId : null,
            subscriber_url: '',
            triggers: '[]',
            active: 1,
            payload_template: null,
            created_at: now,
            ...(await changes(c.body, now, ctx.outbound)),
          };
          await repo.insertWebhook(db, row);
          return webhook(row);
        },
      }),
      get: route<unknown, unknown, { webhookId: string }>({ data: webhookView, handle: async (c) => webhook(await load(c, c.params.webhookId)) }),
      update: route<Partial<WebhookInput>, unknown, { webhookId: string }>({
        body: patchOf(fields),
        data: webhookView,
        handle: async (c) => {
          await load(c, c.params.webhookId);
          return webhook((await repo.updateWebhook(db, owner(c), c.params.webhookId, await changes(c.body, clock(), ctx.outbound)))!);
        },
      }),
      delete: route<unknown, unknown, { webhookId: string }>({
        data: deleted,
        handle: async (c) => {
          if (!(await repo.deleteWebhook(db, owner(c), c.params.webhookId))) throw notFound('webhook');
          return { id: c.params.webhookId, deleted: true };
        },
      }),
    };
  };

  const mine = crud('user');
  const org = crud('organization');
  return {
    'webhooks.list': mine.list,
    'webhooks.create': mine.create,
    'webhooks.get': mine.get,
    'webhooks.update': mine.update,
    'webhooks.delete': mine.delete,
    'orgWebhooks.list': org.list,
    'orgWebhooks.create': org.create,
    'orgWebhooks.get': org.get,
    'orgWebhooks.update': org.update,
    'orgWebhooks.delete': org.delete,
  };
}
