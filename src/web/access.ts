// Who may see a settings page: a logged-in user (others go to /login and come back), the
// client's owner for a developer page (anyone else gets the same 404 as for a missing
// client, so client ids cannot be probed), an admin for /admin.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ClientView } from '../services/clients/view.ts';
import { requireClient } from '../services/clients/view.ts';
import type { ServiceContext } from '../services/context.ts';
import { notFound, ServiceError } from '../services/errors.ts';
import type { User } from '../services/accounts/users.ts';
import { sendErrorPage } from './pages.ts';

/** The logged-in user, or undefined after sending the browser to the login page. */
export function signedIn(request: FastifyRequest, reply: FastifyReply): User | undefined {
  if (request.user !== undefined) return request.user;
  // A POST cannot be replayed after login; the page it came from can.
  const back = request.method === 'GET' ? request.url : refererPath(request.headers.referer);
  void reply.redirect(`/login?next=${encodeURIComponent(back)}`, 303);
  return undefined;
}

/** The path of the page a form was posted from; '/' when the header is absent or garbage. */
function refererPath(referer: string | undefined): string {
  if (referer === undefined) return '/';
  try {
    return new URL(referer, 'http://x').pathname;
  } catch {
    return '/';
  }
}

/** An admin, or undefined after sending the login page (anonymous) or a 403 page. */
export function signedInAdmin(request: FastifyRequest, reply: FastifyReply): User | undefined {
  const user = signedIn(request, reply);
  if (user === undefined) return undefined;
  if (user.isAdmin) return user;
  void sendErrorPage(reply, request, 403, 'Admins only', 'Reviewing OAuth clients is for platform admins. Your account is not an admin account.');
  return undefined;
}

export async function ownedClient(ctx: ServiceContext, user: User, clientId: string): Promise<ClientView> {
  const missing = notFound('there is no client with this id among your clients');
  if (clientId.length > 200) throw missing;
  try {
    const client = await requireClient(ctx, clientId);
    if (client.ownerId !== user.id) throw missing;
    return client;
  } catch (error) {
    if (error instanceof ServiceError && error.kind === 'not_found') throw missing;
    throw error;
  }
}
