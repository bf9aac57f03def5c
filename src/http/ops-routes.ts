// Operations: liveness, readiness and metrics (issue: standards and operations).
import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppContext } from '../context.ts';
import type { Metrics } from './metrics.ts';

function isLoopback(ip: string): boolean {
  return ip === '127.0.0.1' || ip === '::1' || ip === '::ffff:127.0.0.1';
}

/**
 * Whether the real caller is on this host. With TRUST_PROXY, request.ip is already the
 * caller the trusted proxies name. Without it, a request that carries forwarding headers
 * came through a proxy nobody configured (a same-host nginx, say): its socket address is
 * the proxy's, not the caller's, so it is not private.
 */
function callerIsLoopback(request: FastifyRequest, proxyTrusted: boolean): boolean {
  if (!isLoopback(request.ip)) return false;
  if (proxyTrusted) return true;
  const h = request.headers;
  return h['x-forwarded-for'] === undefined && h.forwarded === undefined && h['x-real-ip'] === undefined;
}

function tokenMatches(header: string | undefined, token: string): boolean {
  if (header === undefined) return false;
  const presented = Buffer.from(header.replace(/^Bearer /i, ''));
  const expected = Buffer.from(token);
  return presented.length === expected.length && timingSafeEqual(presented, expected);
}

export async function opsRoutes(app: FastifyInstance, ctx: AppContext, metrics: Metrics): Promise<void> {
  app.get('/healthz', async (_request, reply) => {
    reply.header('cache-control', 'no-store');
    return { status: 'ok' };
  });

  app.get('/readyz', async (request, reply) => {
    reply.header('cache-control', 'no-store');
    try {
      await ctx.readiness.ping();
      if (!(await ctx.readiness.migrationsApplied())) {
        return reply.status(503).send({ status: 'unavailable', reason: 'migrations are pending: run gatehouse migrate' });
      }
      return { status: 'ready' };
    } catch (err) {
      request.log.warn({ err }, 'readiness check failed');
      return reply.status(503).send({ status: 'unavailable', reason: 'the database is not reachable' });
    }
  });

  app.get('/metrics', async (request, reply) => {
    const token = ctx.config.metricsToken;
    const allowed = (token !== undefined && tokenMatches(request.headers.authorization, token)) || callerIsLoopback(request, ctx.config.trustProxy !== false);
    if (!allowed) {
      return reply.status(403).send({ status: 'error', error: { code: 'forbidden', message: 'metrics are served to loopback or with Authorization: Bearer <METRICS_TOKEN>' } });
    }
    reply.header('content-type', metrics.registry.contentType);
    return metrics.registry.metrics();
  });
}
