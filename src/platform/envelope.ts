// The platform API's response envelope (SPEC §2 item 17).
import type { FastifyReply } from 'fastify';

export type ApiErrorCode =
  | 'unauthorized'
  | 'invalid_token'
  | 'insufficient_scope'
  | 'forbidden'
  | 'not_found'
  | 'conflict'
  | 'validation_error'
  | 'bad_request'
  | 'rate_limited'
  | 'service_unavailable'
  | 'internal_error';

export function success<T>(data: T): { status: 'success'; data: T } {
  return { status: 'success', data };
}

export function sendApiError(reply: FastifyReply, status: number, code: ApiErrorCode, message: string): FastifyReply {
  // SPEC §2 item 27: an error is never cached either (also the 404 of an unknown /v2 path).
  return reply.status(status).header('cache-control', 'no-store').send({ status: 'error', error: { code, message } });
}

/** The body of the 503 when the database is unavailable (http/store-unavailable.ts sets Retry-After). */
export function sendUnavailable(reply: FastifyReply, retryAfterSeconds: number): FastifyReply {
  return sendApiError(reply, 503, 'service_unavailable', `the service is temporarily unavailable; try again in ${retryAfterSeconds} seconds`);
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: ApiErrorCode,
    message: string,
    /** Sent with the error: WWW-Authenticate on a 401 or 403 (SPEC §2 item 17), Retry-After on a 429. */
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}
