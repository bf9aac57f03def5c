// The platform API's response envelope (docs/rules.md#api-envelope), and its column of the error table
// (http/errors.ts): every failure under /v2 is answered here.
import type { FastifyReply } from 'fastify';
import { apiErrorBody, type ApiErrorCode, errorTable, type Failure } from './authorization-server.ts';

export function success<T>(data: T): { status: 'success'; data: T } {
  return { status: 'success', data };
}

export function sendApiError(reply: FastifyReply, status: number, code: ApiErrorCode, message: string): FastifyReply {
  // docs/rules.md#forms-and-pages: an error is never cached either (also the 404 of an unknown /v2 path).
  return reply.status(status).header('cache-control', 'no-store').send(apiErrorBody(reply.request.url, code, message));
}

/** A failure of any kind, with its headers (WWW-Authenticate, Retry-After) and the table's code. */
export function sendFailure(reply: FastifyReply, failure: Failure): FastifyReply {
  return sendApiError(reply.headers(failure.headers), failure.status, errorTable[failure.kind].api, failure.message);
}
