// The one serializer of OAuth error answers (RFC 6749 §5.2; ARCHITECTURE.md#one-error-serializer), and the OAuth
// endpoints' column of the error table (http/errors.ts): whatever else fails in this scope,
// a body Fastify refused or an outage, answers as an OAuth error, so no Fastify error body
// reaches a client application.
import type { FastifyError, FastifyInstance, FastifyReply } from 'fastify';
import { OAuthError } from '../../oauth/errors.ts';
import { errorTable } from '../errors.ts';
import { failureOf, type Failure } from '../failure.ts';
import { tellRequestCount } from './client-limits.ts';

/** What the OAuth endpoints read (RFC 6749 §3.2 forms, and JSON), named when a body is neither. */
const READS = 'application/x-www-form-urlencoded or application/json';

/** Status, challenge, rate-limit headers and body; Cache-Control is the scope's (index.ts). */
export function sendOAuthError(reply: FastifyReply, error: OAuthError): FastifyReply {
  if (error.basicChallenge) reply.header('www-authenticate', 'Basic realm="gatehouse", charset="UTF-8"');
  if (error.retryAfter !== undefined) reply.header('retry-after', String(error.retryAfter));
  tellRequestCount(reply, error.rateLimit);
  return reply.status(error.status).send(error.toJSON());
}

/** A failure of any other kind, as the table's OAuth code says it. */
function asOAuthError(failure: Failure): OAuthError {
  const { error, status } = errorTable[failure.kind].oauth;
  return new OAuthError(error, failure.message, undefined, status);
}

/** Every failure of the scope answers as an OAuth error; a cause goes to the log only. */
export function answerErrorsAsOAuth(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof OAuthError) {
      if (error.internalCause) request.log.info({ cause: error.internalCause }, error.code);
      return sendOAuthError(reply, error);
    }
    const failure = failureOf(error, request, READS);
    return sendOAuthError(reply.headers(failure.headers), asOAuthError(failure));
  });
}
