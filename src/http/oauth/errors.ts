// The one serializer of OAuth error answers (RFC 6749 §5.2; STYLE practice 4), and the
// mapping of framework-level failures onto RFC codes, so no Fastify error body reaches a
// client application.
import type { FastifyError, FastifyInstance, FastifyReply } from 'fastify';
import { OAuthError } from '../../oauth/errors.ts';
import { StoreUnavailable } from '../../services/store-unavailable.ts';
import { requestRefusal } from '../body-errors.ts';
import { answerStoreUnavailable } from '../store-unavailable.ts';
import { tellRequestCount } from './client-limits.ts';

/** RFC 6749 §5.2 body for a framework-level failure (bad JSON, wrong content type, too large). */
function fromFrameworkError(error: FastifyError): OAuthError | undefined {
  const refusal = requestRefusal(error, 'application/x-www-form-urlencoded or application/json');
  return refusal === undefined ? undefined : new OAuthError('invalid_request', refusal);
}

/** Status, challenge, rate-limit headers and body; Cache-Control is the scope's (index.ts). */
export function sendOAuthError(reply: FastifyReply, error: OAuthError): FastifyReply {
  if (error.basicChallenge) reply.header('www-authenticate', 'Basic realm="gatehouse", charset="UTF-8"');
  if (error.retryAfter !== undefined) reply.header('retry-after', String(error.retryAfter));
  tellRequestCount(reply, error.rateLimit);
  return reply.status(error.status).send(error.toJSON());
}

/** RFC 6749 §4.1.2.1 "temporarily unable to handle the request", as §5.2 writes an error. */
function sendTemporarilyUnavailable(reply: FastifyReply): FastifyReply {
  return sendOAuthError(reply, new OAuthError('temporarily_unavailable', 'the service is temporarily unavailable; try again in a few seconds'));
}

/** Every failure of the scope answers as an OAuth error; the cause goes to the log only. */
export function answerErrorsAsOAuth(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    const oauthError = error instanceof OAuthError ? error : fromFrameworkError(error);
    if (oauthError !== undefined) {
      if (oauthError.internalCause) request.log.info({ cause: oauthError.internalCause }, oauthError.code);
      return sendOAuthError(reply, oauthError);
    }
    if (error instanceof StoreUnavailable) return answerStoreUnavailable(error, request, reply, sendTemporarilyUnavailable);
    request.log.error({ err: error }, 'token endpoint failed');
    return sendOAuthError(reply, new OAuthError('server_error', 'the server could not complete the request; try again'));
  });
}
