// docs/rules.md#rate-limits, docs/rules.md#public-booking: bookings made, rescheduled and
// cancelled without an access token are limited per caller's address and per event type
// (RATE_LIMIT_PUBLIC_BOOKINGS_PER_IP_PER_HOUR, RATE_LIMIT_PUBLIC_BOOKINGS_PER_EVENT_TYPE_PER_HOUR),
// on the counters every limit uses (memory, or Redis shared by every instance). Each such
// write holds the host's time and sends the subscribers' webhooks, and anyone can send it.
//
// A write is counted before it is made, so a burst of concurrent requests makes no more
// writes than the limits; it is given back when it was not made (a taken slot, an unknown or
// hidden event type), so a limit counts what was done, and nobody spends an event type's
// limit without booking it. A reschedule or cancellation is counted once its manageToken has
// opened the booking. A caller with an access token acts for a user who authorized its
// application and is not counted here.
import type { PlatformDeps } from '../deps.ts';
import { callerKey, LimitExceeded, type RateLimits, Refusal } from '../authorization-server.ts';

type Limit = RateLimits['publicBookingsPerIp'];

/** Who writes, as far as the limits care. */
export interface PublicWriter {
  /** An access token came with the request (the guard checked it): not counted here. */
  authorized: boolean;
  /** The caller's IP: the socket's, or the one a trusted proxy names (TRUST_PROXY). */
  ip: string;
  /** Sets headers of the answer (the route's; a tool has none). */
  tell(headers: Readonly<Record<string, string>>): void;
}

/** The 429 of a spent limit: its words, Retry-After, and the limit's figures as the token endpoint gives them. */
function refusal(spent: LimitExceeded, whose: string): Refusal {
  const retryAfter = String(spent.retryAfter);
  return new Refusal(
    'rate_limited',
    `too many bookings, reschedules and cancellations ${whose} without an access token: at most ${spent.limit} an hour; retry in ${retryAfter} seconds`,
    { 'retry-after': retryAfter, 'x-ratelimit-limit': String(spent.limit), 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': retryAfter },
  );
}

/**
 * Runs `write`, a public booking write of the event type `eventTypeId` (null: a booking whose
 * event type is gone, counted per address only), under the limits when the writer sent no
 * access token. Refused with 429 rate_limited before anything is written when the address or
 * the event type has used its limit. The answer tells the caller its address's count in
 * X-RateLimit-*; the event type's count is other bookers' business and is not told.
 */
export async function limitPublicWrite<T>(deps: Pick<PlatformDeps, 'limits' | 'config'>, writer: PublicWriter, eventTypeId: string | null, write: () => Promise<T>): Promise<T> {
  if (writer.authorized) return write();
  const { publicBookingsPerIp, publicBookingsPerEventType } = deps.limits;
  const taken: Array<[Limit, string]> = [];
  const giveBack = () => Promise.all(taken.map(([limit, key]) => limit.giveBack(key)));
  const take = async (limit: Limit, key: string, whose: string) => {
    try {
      const count = await limit.take(key);
      if (count !== null) taken.push([limit, key]);
      return count;
    } catch (error) {
      if (!(error instanceof LimitExceeded)) throw error;
      await giveBack();
      throw refusal(error, whose);
    }
  };

  const count = await take(publicBookingsPerIp, callerKey(writer.ip), 'from this address');
  // Event type ids are numbered per database: the service's address (BASE_URL, the issuer)
  // keeps one deployment's counts apart from another's on the same Redis (staging beside production).
  if (eventTypeId !== null) await take(publicBookingsPerEventType, `${deps.config.baseUrl}|${eventTypeId}`, 'of this event type');
  let result: T;
  try {
    result = await write();
  } catch (error) {
    await giveBack();
    throw error;
  }
  if (count !== null) writer.tell({ 'x-ratelimit-limit': String(count.limit), 'x-ratelimit-remaining': String(count.remaining), 'x-ratelimit-reset': String(count.resetSeconds) });
  return result;
}
