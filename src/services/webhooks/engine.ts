// The delivery engine (docs/rules.md#webhooks): every `gatehouse serve` runs one. Each pass claims the due
// deliveries (the store makes a claim exclusive across instances), sends them, and records
// the outcome: delivered, due again later (schedule.ts), or failed; a webhook failing for
// 5 days is turned off with the reason. Each claimed delivery is attempted and recorded on its
// own: one that fails (its outcome refused by the database, say) is reported and the pass goes
// on with the others, so one receiver cannot hold up everyone's deliveries. While the
// database cannot be reached, or the deliveries' tables are missing (a restore under way,
// docs/operating.md#backup-and-restore), passes wait: that is said once when it starts and
// once when it ends, not once per pass. Tests drive passes with deliverDue() and a moved clock.
import type { ServiceContext } from '../context.ts';
import { StoreUnavailable } from '../store-unavailable.ts';
import type { OutboundPolicy } from '../outbound-url.ts';
import { CLAIM_LEASE_MS, DISABLE_AFTER_MS, nextAttemptAt } from './schedule.ts';
import { sendDelivery } from './sender.ts';
import { signedHeaders } from './signing.ts';
import type { AttemptOutcome, ClaimedDelivery } from './store.ts';

export interface DeliveryEngineOptions {
  services: ServiceContext;
  outbound: OutboundPolicy;
  /** Tests only; deliveries get sender.ts's 10 seconds (docs/rules.md#webhooks). */
  timeoutMs?: number;
  /** Deliveries claimed per pass. */
  batch?: number;
  /** In [0, 1), for the jitter of retry delays. */
  random?: () => number;
  /**
   * Where a failure is reported: of a pass as a whole (the database away), or, with its
   * delivery's id, of one attempt (its outcome could not be recorded), after which the pass
   * went on.
   */
  onError?: (err: unknown, deliveryId?: string) => void;
  /**
   * Where a wait is reported: `waiting` when a pass first finds the database unavailable or
   * the deliveries' tables missing (StoreTablesMissing), `resumed` when a pass claims again.
   */
  onWait?: { waiting(err: StoreUnavailable): void; resumed(): void };
}

export interface DeliveryEngine {
  /**
   * One pass: claims, sends and records every due delivery (up to a batch); returns how many
   * it attempted, none while the database is unavailable or its tables missing.
   */
  deliverDue(): Promise<number>;
  /** Runs passes every intervalMs until stop(). */
  start(intervalMs: number): void;
  /** Stops the passes and waits for the one under way. */
  stop(): Promise<void>;
}

const DAY = 24 * 3600 * 1000;

/** What the owner sees of an attempt whose answer the database would not store. */
export const UNSTORABLE_ANSWER = 'the answer could not be stored';

export function createDeliveryEngine(options: DeliveryEngineOptions): DeliveryEngine {
  const { services, outbound } = options;
  const store = services.stores.webhookDeliveries;
  const batch = options.batch ?? 20;
  const random = options.random ?? Math.random;

  /**
   * Records an attempt's outcome. Should the database refuse it, the likely cause is the
   * receiver's answer, the one outside text in it: the refusal is reported and the outcome
   * recorded without the answer, so that the delivery still follows its schedule to the 24
   * hours' end, and its webhook to the 5-day switch-off, instead of being claimed again
   * and again each time its lease ends.
   */
  async function record(d: ClaimedDelivery, outcome: AttemptOutcome): Promise<boolean> {
    try {
      return await store.recordAttempt(d.id, d.attempt, outcome);
    } catch (err) {
      options.onError?.(err, d.id);
      return store.recordAttempt(d.id, d.attempt, { ...outcome, responseBody: null, error: outcome.error ?? UNSTORABLE_ANSWER });
    }
  }

  async function attempt(d: ClaimedDelivery): Promise<void> {
    // The header's timestamp is read by the receiver against its own clock to refuse
    // replays, so it is the wall clock; the schedule runs on the service clock.
    const headers = signedHeaders(d.secret, d.id, Math.floor(Date.now() / 1000), d.payload);
    const result = await sendDelivery(d.url, headers, d.payload, outbound, options.timeoutMs);
    const now = services.clock();
    const delivered = result.status !== null && result.status >= 200 && result.status < 300;
    const outcome: AttemptOutcome = {
      at: now,
      delivered,
      responseStatus: result.status,
      responseBody: result.body,
      error: result.error,
      nextAttemptAt: delivered ? null : nextAttemptAt(d.createdAt, d.attempt, now, random),
    };
    if (!(await record(d, outcome))) return;
    if (!('webhookId' in d.destination)) return;
    if (delivered) return store.markHealthy(d.destination.webhookId);
    const since = await store.markFailing(d.destination.webhookId, now);
    if (now - since >= DISABLE_AFTER_MS) {
      const days = Math.floor((now - since) / DAY);
      const reason = `turned off on ${new Date(now).toISOString()}: every delivery failed for ${days} days (last: ${result.error ?? `HTTP ${result.status}`}); fix the receiver, then set active to true`;
      await store.disable(d.destination.webhookId, reason, now);
    }
  }

  let waiting = false;

  /** The due deliveries, claimed; none while the store cannot be used, which is reported once. */
  async function claim(now: number): Promise<ClaimedDelivery[]> {
    let claimed: ClaimedDelivery[];
    try {
      claimed = await store.claimDue(now, now + CLAIM_LEASE_MS, batch);
    } catch (err) {
      if (!(err instanceof StoreUnavailable)) throw err;
      if (!waiting) options.onWait?.waiting(err);
      waiting = true;
      return [];
    }
    if (waiting) options.onWait?.resumed();
    waiting = false;
    return claimed;
  }

  async function deliverDue(): Promise<number> {
    const now = services.clock();
    const claimed = await claim(now);
    // A failure that remains (the database gone mid-pass) ends this attempt only; the delivery
    // keeps its lease and is claimed again when the lease ends, as after a crash.
    await Promise.all(claimed.map((d) => attempt(d).catch((err: unknown) => options.onError?.(err, d.id))));
    return claimed.length;
  }

  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let stopped = false;
  return {
    deliverDue,
    start(intervalMs) {
      stopped = false;
      const pass = async () => {
        try {
          // A full batch means more may be due: go on at once.
          while (!stopped && (await deliverDue()) === batch);
        } catch (err) {
          options.onError?.(err);
        }
      };
      const tick = () => {
        running = pass().finally(() => {
          if (!stopped) timer = setTimeout(tick, intervalMs);
        });
      };
      tick();
    },
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}
