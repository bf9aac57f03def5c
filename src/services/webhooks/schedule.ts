// When a failed delivery is tried again, and when Gatehouse gives up (docs/rules.md#webhooks): growing
// delays with jitter, so that receivers that failed together are not called back together,
// for 24 hours from the event; a webhook whose deliveries failed 5 days running is turned off.

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

/** The delay after the n-th failed attempt (1-based); the last one repeats. */
export const RETRY_DELAYS_MS = [5 * SECOND, MINUTE, 5 * MINUTE, 30 * MINUTE, HOUR, 2 * HOUR, 4 * HOUR, 8 * HOUR];

/** Up to this share of a delay is added or taken away at random. */
export const JITTER = 0.1;

/** Deliveries are retried while the next attempt falls within this long after the event. */
export const RETRY_WINDOW_MS = 24 * HOUR;

/** A webhook failing this long without one success is turned off. */
export const DISABLE_AFTER_MS = 5 * 24 * HOUR;

/** How long a claimed attempt is held before another instance may take it (a crashed claimer). */
export const CLAIM_LEASE_MS = 60 * SECOND;

/**
 * The time of the next attempt after `attempts` failed ones, or null when the 24 hours are
 * over and the delivery is failed. `random` in [0, 1).
 */
export function nextAttemptAt(createdAt: number, attempts: number, now: number, random: () => number = Math.random): number | null {
  const base = RETRY_DELAYS_MS[Math.min(attempts, RETRY_DELAYS_MS.length) - 1]!;
  const delay = Math.round(base * (1 + JITTER * (2 * random() - 1)));
  const at = now + delay;
  return at <= createdAt + RETRY_WINDOW_MS ? at : null;
}
