// The OAuth endpoints for client applications: token (RFC 6749 §3.2) and metadata (RFC 8414).
import rateLimit from '@fastify/rate-limit';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { OAuthError } from '../oauth/errors.ts';
import { scopeRegistry } from '../oauth/scopes.ts';
import { handleIntrospection } from '../oauth/introspection.ts';
import { handleRevocation } from '../oauth/revocation.ts';
import { handleTokenRequest } from '../oauth/token-endpoint.ts';
import type { AppContext } from './context.ts';
import type { RateLimits } from './rate-limits.ts';

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

/** Which client a request speaks for, without validating anything: the rate-limit key. */
function claimedClientId(request: FastifyRequest): string {
  const auth = request.headers.authorization;
  if (auth !== undefined && /^basic /i.test(auth)) {
    const decoded = Buffer.from(auth.slice(6).trim(), 'base64').toString('utf8');
    return decoded.slice(0, Math.max(0, decoded.indexOf(':'))).slice(0, 200);
  }
  const body = request.body as Record<string, unknown> | undefined;
  const id = body?.client_id;
  return typeof id === 'string' ? id.slice(0, 200) : '';
}

function tooMany(description: string): OAuthError {
  return new OAuthError('temporarily_unavailable', description);
}

export async function tokenRoutes(app: FastifyInstance, ctx: AppContext, limits: RateLimits): Promise<void> {
  // SPEC §2 item 4: form and JSON bodies only. Fastify's built-in text/plain parser would
  // hand the handler a bare string, and the client would be told its parameters are wrong
  // instead of its Content-Type.
  app.removeContentTypeParser('text/plain');
  await app.register(rateLimit, {
    global: false,
    hook: 'preHandler', // after body parsing, so the key can be the client
    skipOnError: true, // a Redis outage must not turn token requests into errors
    ...(limits.redis ? { redis: limits.redis, nameSpace: 'gatehouse:token:' } : {}),
    errorResponseBuilder: (_request, context) =>
      tooMany(`too many token requests for this client: at most ${context.max} per minute; retry in ${context.after}`),
  });
  const perClient =
    limits.tokenPerMinute > 0
      ? { config: { rateLimit: { max: limits.tokenPerMinute, timeWindow: 60_000, keyGenerator: (r: FastifyRequest) => `client:${claimedClientId(r) || r.ip}` } } }
      : {};

  /**
   * SPEC §2 item 18: failed client authentications are limited per client and IP; past
   * the limit every request of that key is refused until the window ends.
   */
  async function limitingAuthFailures<T>(request: FastifyRequest, reply: FastifyReply, fn: () => Promise<T>): Promise<T> {
    const key = `${claimedClientId(request)}|${request.ip}`;
    const wait = await limits.clientAuthFailures.blockedFor(key);
    if (wait !== null) {
      reply.header('retry-after', String(wait));
      throw tooMany(`too many failed client authentications: retry in ${wait} seconds`);
    }
    try {
      return await fn();
    } catch (error) {
      if (error instanceof OAuthError && error.code === 'invalid_client') await limits.clientAuthFailures.recordFailure(key);
      throw error;
    }
  }

  app.setErrorHandler((error: FastifyError, request, reply) => {
    const oauthError = error instanceof OAuthError ? error : fromFrameworkError(error);
    if (oauthError !== undefined) {
      if (oauthError.internalCause) request.log.info({ cause: oauthError.internalCause }, oauthError.code);
      return sendOAuthError(reply, oauthError);
    }
    request.log.error({ err: error }, 'token endpoint failed');
    return sendOAuthError(reply, new OAuthError('server_error', 'the server could not complete the request; try again'));
  });

  app.post(TOKEN_PATH, { bodyLimit: 16 * 1024, ...perClient }, async (request, reply) => {
    const response = await limitingAuthFailures(request, reply, () =>
      handleTokenRequest(ctx.oauth, { body: request.body, authorization: request.headers.authorization }),
    );
    reply.header('cache-control', 'no-store').header('pragma', 'no-cache');
    return response;
  });

  // RFC 7009 §2.2: 200 whether or not the token was known; the body is ignored by the
  // client. It is an empty JSON object rather than nothing, because common clients
  // (simple-oauth2 among them) refuse any answer that is not JSON.
  app.post(REVOKE_PATH, { bodyLimit: 16 * 1024 }, async (request, reply) => {
    await limitingAuthFailures(request, reply, () =>
      handleRevocation(ctx.oauth, { body: request.body, authorization: request.headers.authorization }),
    );
    reply.header('cache-control', 'no-store').header('pragma', 'no-cache');
    return reply.status(200).send({});
  });

  app.post(INTROSPECT_PATH, { bodyLimit: 16 * 1024 }, async (request, reply) => {
    const response = await limitingAuthFailures(request, reply, () =>
      handleIntrospection(ctx.oauth, { body: request.body, authorization: request.headers.authorization }),
    );
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
    introspection_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post', 'none'],
    scopes_supported: scopeRegistry.map((s) => s.name),
    response_types_supported: ['code'],
    response_modes_supported: ['query'],
    grant_types_supported: ['authorization_code', 'refresh_token'],
    token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post', 'none'],
    code_challenge_methods_supported: ['S256'],
    authorization_response_iss_parameter_supported: true,
  }));
}
