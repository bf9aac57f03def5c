// WebhookDeliveryStore (src/services/webhooks/store.ts) over webhook_deliveries, webhooks and
// the events columns of oauth_clients. A new message gets its Standard Webhooks id and body
// here, so the core's store (stores/oauth.ts) writes a notification to the outbox in its own
// transaction just as the services do. A claim is one UPDATE of the due rows it picks: on
// PostgreSQL the pick locks them and skips rows another instance holds; SQLite runs one
// writer at a time, so the statement alone makes the claim exclusive.
import { sql, type Selectable } from 'kysely';
import { randomId } from '../../oauth/token-format.ts';
import type { ClaimedDelivery, ClientEventsSettings, Delivery, Destination, WebhookDeliveryStore } from '../../services/webhooks/store.ts';
import { dialectOf } from '../prepared.ts';
import type { Executor } from '../repositories/executor.ts';
import type { WebhookDeliveriesTable } from '../schema.ts';

type DeliveryRow = Selectable<WebhookDeliveriesTable>;

const destinationOf = (row: { webhook_id: string | null; client_id: string | null }): Destination =>
  row.webhook_id !== null ? { webhookId: row.webhook_id } : { clientId: row.client_id! };

const toDelivery = (r: DeliveryRow): Delivery => ({
  id: r.id,
  destination: destinationOf(r),
  event: r.event,
  payload: r.payload,
  status: r.status,
  attempts: r.attempts,
  nextAttemptAt: r.next_attempt_at,
  lastAttemptAt: r.last_attempt_at,
  responseStatus: r.response_status,
  responseBody: r.response_body,
  error: r.error,
  createdAt: r.created_at,
});

/** A message as the outbox keeps it until it is delivered: its body is signed and sent as it is. */
interface Message {
  destination: Destination;
  event: string;
  payload: string;
}

/** Writes each message with an id of its own, due at `at`; returns the ids in order. */
async function insertMessages(db: Executor, messages: Message[], at: number): Promise<string[]> {
  if (messages.length === 0) return [];
  // The Standard Webhooks message id (`webhook-id`), the same on every attempt.
  const ids = messages.map(() => `msg_${randomId()}`);
  await db
    .insertInto('webhook_deliveries')
    .values(
      messages.map((m, i) => ({
        id: ids[i]!,
        webhook_id: 'webhookId' in m.destination ? m.destination.webhookId : null,
        client_id: 'clientId' in m.destination ? m.destination.clientId : null,
        event: m.event,
        payload: m.payload,
        status: 'pending' as const,
        next_attempt_at: at,
        created_at: at,
      })),
    )
    .execute();
  return ids;
}

/** The body every delivery carries: Standard Webhooks' recommended envelope (docs/integrating.md#webhooks). */
function envelope(type: string, at: number, data: Record<string, unknown>): string {
  return JSON.stringify({ type, timestamp: new Date(at).toISOString(), data });
}

async function readClientEvents(db: Executor, clientId: string): Promise<ClientEventsSettings> {
  const row = await db.selectFrom('oauth_clients').select(['events_url', 'events_secret']).where('id', '=', clientId).executeTakeFirst();
  return { eventsUrl: row?.events_url ?? null, hasSecret: (row?.events_secret ?? null) !== null };
}

/**
 * NotificationStore.notifyClient (oauth/storage.ts), for the core's store and the services'
 * alike: a client with nowhere to receive it, or nothing to sign it with, is told nothing.
 */
export async function notifyClient(db: Executor, clientId: string, event: string, data: Record<string, unknown>, at: number): Promise<void> {
  const settings = await readClientEvents(db, clientId);
  if (settings.eventsUrl === null || !settings.hasSecret) return;
  await insertMessages(db, [{ destination: { clientId }, event, payload: envelope(event, at, { clientId, ...data }) }], at);
}

function byDestination(db: Executor, destination: Destination) {
  const q = db.selectFrom('webhook_deliveries').selectAll();
  return 'webhookId' in destination ? q.where('webhook_id', '=', destination.webhookId) : q.where('client_id', '=', destination.clientId);
}

/** Pending, due, and to a destination that can take it: an active webhook, a client with an events URL. */
function dueIds(db: Executor, now: number, limit: number) {
  return db
    .selectFrom('webhook_deliveries')
    .select('id')
    .where('status', '=', 'pending')
    .where('next_attempt_at', '<=', now)
    .where((eb) =>
      eb.or([
        eb('webhook_id', 'in', eb.selectFrom('webhooks').select('id').where('active', '=', 1).where('secret', 'is not', null)),
        eb('client_id', 'in', eb.selectFrom('oauth_clients').select('id').where('events_url', 'is not', null).where('events_secret', 'is not', null)),
      ]),
    )
    .orderBy('next_attempt_at')
    .limit(limit);
}

/** Counts an attempt on each due row it picks and holds the row until the lease ends. */
async function claimIds(db: Executor, now: number, leaseUntil: number, limit: number): Promise<string[]> {
  const due = dialectOf(db) === 'postgres' ? dueIds(db, now, limit).forUpdate().skipLocked() : dueIds(db, now, limit);
  // MATERIALIZED: the due rows are picked once. As a plain subquery of the UPDATE, the
  // planner may scan it again, and each scan skips other locks and takes up to `limit` more.
  const claimed = await db
    .with((cte) => cte('due').materialized(), () => due)
    .updateTable('webhook_deliveries')
    .set((eb) => ({ attempts: eb('attempts', '+', 1), next_attempt_at: leaseUntil }))
    .where('id', 'in', (eb) => eb.selectFrom('due').select('id'))
    .returning('id')
    .execute();
  return claimed.map((r) => r.id);
}

async function loadClaimed(db: Executor, ids: string[]): Promise<ClaimedDelivery[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .selectFrom('webhook_deliveries as d')
    .leftJoin('webhooks as w', 'w.id', 'd.webhook_id')
    .leftJoin('oauth_clients as c', 'c.id', 'd.client_id')
    .select(['d.id', 'd.webhook_id', 'd.client_id', 'd.event', 'd.payload', 'd.created_at', 'd.attempts', 'w.subscriber_url', 'w.secret', 'c.events_url', 'c.events_secret'])
    .where('d.id', 'in', ids)
    .orderBy('d.created_at')
    .execute();
  return rows.map((r) => ({
    id: r.id,
    destination: destinationOf(r),
    event: r.event,
    payload: r.payload,
    createdAt: r.created_at,
    attempt: r.attempts,
    url: (r.webhook_id !== null ? r.subscriber_url : r.events_url) ?? '',
    secret: (r.webhook_id !== null ? r.secret : r.events_secret) ?? '',
  }));
}

export function createWebhookDeliveryStore(db: Executor): WebhookDeliveryStore {
  return {
    async subscribedWebhooks(trigger, owner) {
      const orgId = owner.organizationId ?? null;
      const eventTypeId = owner.eventTypeId ?? null;
      if (owner.hostId === null && owner.teamId === null && orgId === null && eventTypeId === null) return [];
      const rows = await db
        .selectFrom('webhooks')
        .select(['id', 'triggers'])
        .where('active', '=', 1)
        .where((eb) => {
          const personal = owner.hostId !== null ? [eb('user_id', '=', owner.hostId)] : [];
          const ofEventType = eventTypeId !== null ? [eb('event_type_id', '=', eventTypeId)] : [];
          const organization =
            orgId !== null
              ? [eb('organization_id', '=', orgId)]
              : owner.teamId !== null
                ? [eb('organization_id', 'in', eb.selectFrom('teams').select('organization_id').where('id', '=', owner.teamId))]
                : owner.hostId !== null
                  ? [eb('organization_id', 'in', eb.selectFrom('memberships').select('organization_id').where('user_id', '=', owner.hostId))]
                  : [];
          return eb.or([...personal, ...ofEventType, ...organization]);
        })
        .orderBy('created_at')
        .execute();
      return rows.filter((r) => (JSON.parse(r.triggers) as string[]).includes(trigger)).map((r) => r.id);
    },
    enqueue: (destinations, event, data, at) => insertMessages(db, destinations.map((destination) => ({ destination, event, payload: envelope(event, at, data) })), at),
    async redeliver(destination, id, at) {
      const original = await byDestination(db, destination).where('id', '=', id).executeTakeFirst();
      if (original === undefined) return undefined;
      const [copy] = await insertMessages(db, [{ destination, event: original.event, payload: original.payload }], at);
      return copy;
    },
    notifyClient: (clientId, event, data, at) => notifyClient(db, clientId, event, data, at),
    async claimDue(now, leaseUntil, limit) {
      return loadClaimed(db, await claimIds(db, now, leaseUntil, limit));
    },
    async recordAttempt(id, attempt, o) {
      const result = await db
        .updateTable('webhook_deliveries')
        .set({
          status: o.delivered ? 'delivered' : o.nextAttemptAt === null ? 'failed' : 'pending',
          next_attempt_at: o.nextAttemptAt,
          last_attempt_at: o.at,
          response_status: o.responseStatus,
          response_body: o.responseBody,
          error: o.error,
        })
        .where('id', '=', id)
        .where('attempts', '=', attempt)
        .where('status', '=', 'pending')
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },
    async markFailing(webhookId, now) {
      // coalesce keeps the first failure time; a concurrent first failure waits for the row and keeps the other's.
      const row = await db
        .updateTable('webhooks')
        .set((eb) => ({ failing_since: eb.fn.coalesce('failing_since', eb.val(now)) }))
        .where('id', '=', webhookId)
        .returning('failing_since')
        .executeTakeFirst();
      return row?.failing_since ?? now;
    },
    async markHealthy(webhookId) {
      await db.updateTable('webhooks').set({ failing_since: null }).where('id', '=', webhookId).where('failing_since', 'is not', null).execute();
    },
    async disable(webhookId, reason, now) {
      const run = async (tx: Executor) => {
        await tx.updateTable('webhooks').set({ active: 0, disabled_reason: reason, updated_at: now }).where('id', '=', webhookId).execute();
        await tx
          .updateTable('webhook_deliveries')
          .set({ status: 'failed', next_attempt_at: null, error: sql<string>`coalesce(error, ${'the webhook was turned off'})` })
          .where('webhook_id', '=', webhookId)
          .where('status', '=', 'pending')
          .execute();
      };
      await (db.isTransaction ? run(db) : db.transaction().execute(run));
    },
    async list(destination, limit, offset) {
      const rows = await byDestination(db, destination).orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit).offset(offset).execute();
      return rows.map(toDelivery);
    },
    async find(destination, id) {
      const row = await byDestination(db, destination).where('id', '=', id).executeTakeFirst();
      return row && toDelivery(row);
    },
    clientEvents: (clientId) => readClientEvents(db, clientId),
    async setClientEventsUrl(clientId, url, now) {
      await db.updateTable('oauth_clients').set({ events_url: url, updated_at: now }).where('id', '=', clientId).execute();
    },
    async clientEventsSecret(clientId) {
      const row = await db.selectFrom('oauth_clients').select('events_secret').where('id', '=', clientId).executeTakeFirst();
      return row?.events_secret ?? null;
    },
    async replaceClientEventsSecret(clientId, current, secret, now) {
      const update = db.updateTable('oauth_clients').set({ events_secret: secret, updated_at: now }).where('id', '=', clientId);
      const result = await (current === null ? update.where('events_secret', 'is', null) : update.where('events_secret', '=', current)).executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },
  };
}
