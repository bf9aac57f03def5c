// The OAuth endpoints for client applications: token (RFC 6749 §3.2) and metadata (RFC 8414).
import { createHash } from 'node:crypto';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ClientAuthLimits } from '../oauth/client-auth.ts';
import { OAuthError } from '../oauth/errors.ts';
import { scopeRegistry } from '../oauth/scopes.ts';
import { handleIntrospection } from '../oauth/introspection.ts';
import { handleRevocation } from '../oauth/revocation.ts';
import { handleTokenRequest } from '../oauth/token-endpoint.ts';
import type { AppContext } from './context.ts';
import { refuseRepeatedJsonKeys } from './json-body.ts';
import { callerKey, FailureLimit, LimitExceeded, type RateLimits } from './rate-limits.ts';

export const TOKEN_PATH = '/v2/auth/oauth2/token';
export const REVOKE_PATH = '/v2/auth/oauth2/revoke';
export const INTROSPECT_PATH = '/v2/auth/oauth2/introspect';

/** RFC 6749 §5.2 body for a framework-level failure (bad JSON, wrong content type, too large). */
function fromFrameworkError(error: FastifyError): OAuthError | undefined {
  switch (error.code) {
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new OAuthError('invalid_request', 'Content-Type must be application/x-www-form-urlencoded or application/json');
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return new OAuthError('invalid_request', 'the request body is not valid JSON');
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new OAuthError('invalid_request', 'the request body is too large');
    default:
      if (error.statusCode !== undefined && error.statusCode >= 400 && error.statusCode < 500) {
        return new OAuthError('invalid_request', error.message);
      }
      return undefined;
  }
}

export function sendOAuthError(reply: FastifyReply, error: OAuthError): FastifyReply {
  reply.header('cache-control', 'no-store').header('pragma', 'no-cache');
  if (error.basicChallenge) reply.header('www-authenticate', 'Basic realm="gatehouse", charset="UTF-8"');
  return reply.status(error.status).send(error.toJSON());
}

function tooMany(description: string): OAuthError {
  return new OAuthError('temporarily_unavailable', description);
}

/**
 * A limiter key part for a client_id as authentication read it. Long ids (client-metadata
 * URLs, or junk) are hashed rather than cut, so two ids never share a key.
 */
function clientKey(clientId: string): string {
  return clientId.length <= 200 ? `id:${clientId}` : `sha256:${createHash('sha256').update(clientId).digest('base64url')}`;
}

/**
 * SPEC §2 item 18 around the client authentication of the core: failed authentications
 * per client (as authentication decoded it) and IP, each counted before its secret is
 * checked; and, at the token endpoint, requests per client counted only once the client
 * has authenticated, so that nobody else can spend them. Past a limit: 429 with
 * Retry-After and an RFC 6749 §5.2 body (`temporarily_unavailable`).
 */
function clientAuthLimits(limits: RateLimits, request: FastifyRequest, reply: FastifyReply, countTokenRequests: boolean): ClientAuthLimits {
  return {
    async checkingSecret(credentials, check) {
      const key = `${clientKey(credentials.clientId)}|${callerKey(request.ip)}`;
      const isFailure = (error: unknown) => error instanceof OAuthError && error.code === 'invalid_client';
      try {
        return await FailureLimit.guard([[limits.clientAuthFailures, key]], check, isFailure);
      } catch (error) {
        if (!(error instanceof LimitExceeded)) throw error;
        reply.header('retry-after', String(error.retryAfter));
        throw tooMany(`too many failed client authentications: retry in ${error.retryAfter} seconds`);
      }
    },
    async authenticated(client) {
      if (!countTokenRequests) return;
      try {
        // A public client is named, not authenticated: anyone can send its client_id, so
        // its limit is counted per client and IP, or a stranger could spend it for every
        // device the application runs on.
        const key = client.kind === 'public' ? `client:${client.id}|${callerKey(request.ip)}` : `client:${client.id}`;
        const count = await limits.tokenRequests.take(key);
        if (count !== null) {
          reply.header('x-ratelimit-limit', String(count.limit)).header('x-ratelimit-remaining', String(count.remaining)).header('x-ratelimit-reset', String(count.resetSeconds));
        }
      } catch (error) {
        if (!(error instanceof LimitExceeded)) throw error;
        reply
          .header('x-ratelimit-limit', String(error.limit))
          .header('x-ratelimit-remaining', '0')
          .header('x-ratelimit-reset', String(error.retryAfter))
          .header('retry-after', String(error.retryAfter));
        throw tooMany(`too many token requests for this client: at most ${error.limit} per minute; retry in ${error.retryAfter} seconds`);
      }
    },
  };
}

export async function tokenRoutes(app: FastifyInstance, ctx: AppContext, limits: RateLimits): Promise<void> {
  // SPEC §2 item 4: form and JSON bodies only. Fastify's built-in text/plain parser would
  // hand the handler a bare string, and the client would be told its parameters are wrong
  // instead of its Content-Type.
  app.removeContentTypeParser('text/plain');
  // SPEC §2 item 19: a JSON key that appears twice is a parameter sent twice.
  refuseRepeatedJsonKeys(app);

  app.setErrorHandler((error: FastifyError, request, reply) => {
    const oauthError = error instanceof OAuthError ? error : fromFrameworkError(error);
    if (oauthError !== undefined) {
      if (oauthError.internalCause) request.log.info({ cause: oauthError.internalCause }, oauthError.code);
      return sendOAuthError(reply, oauthError);
    }
    request.log.error({ err: error }, 'token endpoint failed');
    return sendOAuthError(reply, new OAuthError('server_error', 'the server could not complete the request; try again'));
  });

  app.post(TOKEN_PATH, { bodyLimit: 16 * 1024 }, async (request, reply) => {
    const response = await handleTokenRequest(ctx.oauth, {
      body: request.body,
      authorization: request.headers.authorization,
      limits: clientAuthLimits(limits, request, reply, true),
    });
    reply.header('cache-control', 'no-store').header('pragma', 'no-cache');
    return response;
  });

  // RFC 7009 §2.2: 200 whether or not the token was known; the body is ignored by the
  // client. It is an empty JSON object rather than nothing, because common clients
  // (simple-oauth2 among them) refuse any answer that is not JSON.
  app.post(REVOKE_PATH, { bodyLimit: 16 * 1024 }, async (request, reply) => {
    await handleRevocation(ctx.oauth, { body: request.body, authorization: request.headers.authorization, limits: clientAuthLimits(limits, request, reply, false) });
    reply.header('cache-control', 'no-store').header('pragma', 'no-cache');
    return reply.status(200).send({});
  });

  app.post(INTROSPECT_PATH, { bodyLimit: 16 * 1024 }, async (request, reply) => {
    const response = await handleIntrospection(ctx.oauth, {
      body: request.body,
      authorization: request.headers.authorization,
      limits: clientAuthLimits(limits, request, reply, false),
    });
    reply.header('cache-control', 'no-store').header('pragma', 'no-cache');
    return response;
  });

  // RFC 8414 metadata, so integrators' libraries can configure themselves.
  app.get('/.well-known/oauth-authorization-server', async () => ({
    issuer: ctx.config.issuer,
    authorization_endpoint: `${ctx.config.appUrl}/auth/oauth2/authorize`,
    token_endpoint: `${ctx.config.baseUrl}${TOKEN_PATH}`,
    revocation_endpoint: `${ctx.config.baseUrl}${REVOKE_PATH}`,
    revocation_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post', 'none'],
    introspection_endpoint: `${ctx.config.baseUrl}${INTROSPECT_PATH}`,
    // SPEC §6: a public client (method none) may revoke but not introspect.
    introspection_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post'],
    scopes_supported: scopeRegistry.map((s) => s.name),
    response_types_supported: ['code'],
    response_modes_supported: ['query'],
    grant_types_supported: ['authorization_code', 'refresh_token'],
    token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post', 'none'],
    code_challenge_methods_supported: ['S256'],
    authorization_response_iss_parameter_supported: true,
  }));
}
