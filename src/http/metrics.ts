// Prometheus metrics (prom-client): requests by route and status, latency, and the
// protocol's own events (tokens issued/refreshed/revoked, reuse detections), told by the
// core as they are committed to the audit log (oauth/events.ts) so the two can never disagree.
import type { FastifyInstance } from 'fastify';
import { Counter, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { OAuthEvents } from '../oauth/events.ts';
import type { OAuthAuditEventType } from '../oauth/storage.ts';

export class Metrics implements OAuthEvents {
  readonly registry = new Registry();
  readonly requests = new Counter({
    name: 'gatehouse_http_requests_total',
    help: 'HTTP requests by route pattern, method and status',
    labelNames: ['route', 'method', 'status'] as const,
    registers: [this.registry],
  });
  readonly latency = new Histogram({
    name: 'gatehouse_http_request_duration_seconds',
    help: 'HTTP request latency by route pattern',
    labelNames: ['route'] as const,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
    registers: [this.registry],
  });
  readonly events = new Counter({
    name: 'gatehouse_events_total',
    help: 'Audit events: token.issued, token.refreshed, token.revoked, refresh_token.reused, code.replayed, ...',
    labelNames: ['event'] as const,
    registers: [this.registry],
  });

  constructor() {
    collectDefaultMetrics({ register: this.registry });
  }

  /** Counts an event of the core once its transaction has committed. */
  committed(type: OAuthAuditEventType): void {
    this.events.inc({ event: type });
  }

  instrument(app: FastifyInstance): void {
    // A callback hook: it runs after every answer, and needs no promise.
    app.addHook('onResponse', (request, reply, done) => {
      const route = request.routeOptions.url ?? 'unmatched';
      this.requests.inc({ route, method: request.method, status: String(reply.statusCode) });
      this.latency.observe({ route }, reply.elapsedTime / 1000);
      done();
    });
  }
}
