// GET and POST /v2/auth/oauth2/userinfo (OpenID Connect Core §5.3): the decision is the core's
// (src/oauth/userinfo.ts); this writes its refusal as RFC 6750 §3 and RFC 9449 §7.1 say.
// No-store, as every answer of the OAuth scope (§5.3.2 asks it of UserInfo's).
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../../context.ts';
import { DPOP_ALGORITHMS } from '../../oauth/dpop.ts';
import { answerUserInfo } from '../../oauth/userinfo.ts';
import { USERINFO_PATH } from './paths.ts';

export function userInfoRoute(app: FastifyInstance, ctx: AppContext): void {
  async function handle(request: FastifyRequest, reply: FastifyReply) {
    const proof = { header: request.headers.dpop, method: request.method, url: `${ctx.config.baseUrl}${USERINFO_PATH}` };
    const answer = await answerUserInfo(ctx.oauth, request.headers.authorization, proof);
    if (answer.ok) return answer.claims;
    const error = answer.error === undefined ? '' : `, error="${answer.error}"`;
    const challenge = answer.scheme === 'DPoP' ? `DPoP algs="${DPOP_ALGORITHMS.join(' ')}"${error}` : `Bearer realm="gatehouse"${error}${answer.error === 'insufficient_scope' ? ', scope="openid"' : ''}`;
    reply.header('www-authenticate', challenge);
    if (answer.nonce !== undefined) reply.header('dpop-nonce', answer.nonce);
    return reply.code(answer.status).send({ error: answer.error ?? 'invalid_request', error_description: answer.description });
  }
  app.get(USERINFO_PATH, handle);
  app.post(USERINFO_PATH, { bodyLimit: 16 * 1024 }, handle);
}
