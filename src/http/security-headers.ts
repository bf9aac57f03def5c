// SPEC §7: no page may be framed (clickjacking on the consent page), and nothing is sniffed.
import type { FastifyInstance } from 'fastify';

export function addSecurityHeaders(app: FastifyInstance): void {
  app.addHook('onSend', async (_request, reply, payload) => {
    reply.header('x-frame-options', 'DENY');
    reply.header('content-security-policy', "frame-ancestors 'none'");
    reply.header('x-content-type-options', 'nosniff');
    return payload;
  });
}
