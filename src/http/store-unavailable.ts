// How every surface answers StoreUnavailable: the log line and the 503 with Retry-After
// live here, so the page, the API envelope and the OAuth error cannot drift apart; each
// surface only says how its body is written.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { StoreUnavailable } from '../services/store-unavailable.ts';

/** Writes the surface's own 503 body; the status and Retry-After are already set. */
export type UnavailableBody = (reply: FastifyReply, retryAfterSeconds: number) => FastifyReply;

export function answerStoreUnavailable(error: StoreUnavailable, request: FastifyRequest, reply: FastifyReply, body: UnavailableBody): FastifyReply {
  request.log.warn({ err: error.driverError }, 'database unavailable');
  const retryAfter = StoreUnavailable.retryAfterSeconds;
  return body(reply.status(503).header('retry-after', String(retryAfter)), retryAfter);
}
