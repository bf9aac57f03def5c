// GET {BASE_URL}/v2/auth/oauth2/clients/:clientId: a client's public details, in the shape
// Cal.com API v2 answers them (OAuth2ClientDto in its envelope), so an application written for
// that platform can show who is asking before it sends a user to authorize. Only an approved
// client is shown: any other id, or a client in another state, is the same 404, so the
// answer tells nothing about clients no user can authorize (docs/rules.md#client-states).
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.ts';
import { apiErrorBody } from '../errors.ts';
import { CLIENT_DETAILS_PATH } from './paths.ts';

export function clientDetailsRoute(app: FastifyInstance, ctx: AppContext): void {
  app.get(CLIENT_DETAILS_PATH, async (request, reply) => {
    const { clientId } = request.params as { clientId: string };
    const client = await ctx.services.stores.clients.find(clientId);
    if (client === undefined || client.state !== 'approved') {
      return reply.status(404).send(apiErrorBody(request.url, 'not_found', 'no approved client has this client_id'));
    }
    return {
      status: 'success',
      data: {
        client_id: client.id,
        // The platform's shape has one redirect URI: the first registered one.
        redirect_uri: client.redirectUris[0] ?? null,
        name: client.name,
        logo: client.logoUrl,
        // Gatehouse has no trusted clients that skip consent: every client asks the user.
        is_trusted: false,
        client_type: client.kind === 'public' ? 'PUBLIC' : 'CONFIDENTIAL',
      },
    };
  });
}
