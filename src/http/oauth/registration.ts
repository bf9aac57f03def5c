// POST /v2/auth/oauth2/register: dynamic client registration (RFC 7591 §3, docs/rules.md#dynamic-registration).
// Off by default: then the route answers as if it did not exist and the metadata does not
// announce it. Under review each IP may register a few clients an hour, since each pending
// one costs an admin's attention; under open many more, since a hosted agent platform
// registers each of its users' connections from a few addresses (docs/integrating.md#connect-an-ai-agent-mcp).
import type { FastifyInstance } from 'fastify';
import { OAuthError, rateLimited } from '../../oauth/errors.ts';
import { clientInformation, registerDynamicClient } from '../../services/clients/dynamic-registration.ts';
import type { AppContext } from '../../context.ts';
import { takeRegistration } from '../registration-limit.ts';
import { REGISTER_PATH } from './paths.ts';

export function registrationRoute(app: FastifyInstance, ctx: AppContext): void {
  const { policy, scopes } = ctx.config.registration;
  app.post(REGISTER_PATH, { bodyLimit: 16 * 1024 }, async (request, reply) => {
    if (policy === 'off') {
      throw new OAuthError('invalid_request', 'dynamic client registration is not enabled on this server', undefined, 404);
    }
    const refused = await takeRegistration(ctx, policy, request.ip);
    if (refused !== undefined) throw rateLimited(`too many registrations from this address: retry in ${refused.retryAfter} seconds`, refused.retryAfter);
    // RFC 7591 §3.2.2: the service refuses metadata with an OAuthError, which this scope answers.
    const registered = await registerDynamicClient(ctx.services, { policy, scopes }, request.body);
    return reply.status(201).send(clientInformation(registered, ctx.services.clock()));
  });
}
