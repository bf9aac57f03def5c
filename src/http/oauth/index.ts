// The OAuth endpoints for client applications: token (RFC 6749 §3.2), pushed authorization
// requests (RFC 9126), revocation
// (RFC 7009), introspection (RFC 7662), metadata (RFC 8414, OpenID Connect Discovery), the signing
// keys and UserInfo (OpenID Connect Core §10.1.1, §5.3) and a client's public details. Every answer of this scope,
// success or error, is `Cache-Control: no-store` (RFC 6749 §5.1, §5.2), set here once;
// only the metadata document, a public one, may be cached.
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.ts';
import { refuseRepeatedJsonKeys } from '../json-body.ts';
import type { RateLimits } from '../rate-limits.ts';
import { clientDetailsRoute } from './client-details.ts';
import { answerErrorsAsOAuth } from './errors.ts';
import { introspectionRoute } from './introspection.ts';
import { metadataRoute } from './metadata.ts';
import { pushedAuthorizationRoute } from './pushed-authorization.ts';
import { registrationRoute } from './registration.ts';
import { resourceMetadataRoutes } from './resource-metadata.ts';
import { revocationRoute } from './revocation.ts';
import { tokenRoute } from './token.ts';
import { userInfoRoute } from './userinfo.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** A public document that may be cached: the OAuth scope does not mark it no-store. */
    cacheable?: boolean;
  }
}

export async function oauthRoutes(app: FastifyInstance, ctx: AppContext, limits: RateLimits): Promise<void> {
  // docs/rules.md#token-endpoint: form and JSON bodies only. Fastify's built-in text/plain parser would
  // hand the handler a bare string, and the client would be told its parameters are wrong
  // instead of its Content-Type.
  app.removeContentTypeParser('text/plain');
  // docs/rules.md#request-parameters: a JSON key that appears twice is a parameter sent twice.
  refuseRepeatedJsonKeys(app);
  answerErrorsAsOAuth(app);
  // A callback hook, not an async one: it runs on every answer, and needs no promise.
  app.addHook('onSend', (request, reply, payload, done) => {
    if (!(request.routeOptions.config.cacheable === true && reply.statusCode < 400)) {
      reply.header('cache-control', 'no-store').header('pragma', 'no-cache');
    }
    done(null, payload);
  });

  tokenRoute(app, ctx, limits);
  pushedAuthorizationRoute(app, ctx, limits);
  revocationRoute(app, ctx, limits);
  introspectionRoute(app, ctx, limits);
  metadataRoute(app, ctx);
  resourceMetadataRoutes(app, ctx);
  registrationRoute(app, ctx);
  clientDetailsRoute(app, ctx);
  userInfoRoute(app, ctx);
}
