// SIGTERM under a keep-alive load (docs/operating.md#health-metrics-logs: SIGTERM finishes the requests
// in flight, then exits). Fastify's close stops the listening socket, and Node's
// server.close() closes the connections idle at that moment, then waits for every other one
// to end. A connection whose request was in flight was answered "keep-alive" and so stayed
// open after its answer, until its client sent again (answered 503 by Fastify) or the
// keep-alive timeout passed (72 s by default) — and the process with it. Node also stops
// enforcing the header and request timeouts once closing, so a slow client could hold the
// process for ever. While closing, therefore:
// - every answer says `Connection: close` (RFC 9112 §9.6), and Node ends its connection after it;
// - a connection that is idle after an answer anyway is closed at once;
// - what is still open after the grace period (a request that never finishes arriving) is cut.
import type { FastifyInstance } from 'fastify';

/** `graceMs`: how long the requests in flight get to finish (SHUTDOWN_GRACE_SECONDS). */
export function closeConnectionsWhenClosing(app: FastifyInstance, graceMs: number): void {
  let closing = false;
  let grace: NodeJS.Timeout | undefined;
  // preClose runs before the server stops listening and waits for its connections.
  app.addHook('preClose', (done) => {
    closing = true;
    grace = setTimeout(() => app.server.closeAllConnections(), graceMs);
    grace.unref(); // the process exits as soon as everything else is done
    done();
  });
  // Callback hooks, not async ones: they run on every answer, and need no promise.
  app.addHook('onSend', (_request, reply, payload, done) => {
    if (closing) reply.header('connection', 'close');
    done(null, payload);
  });
  app.addHook('onResponse', (_request, _reply, done) => {
    if (closing) app.server.closeIdleConnections();
    done();
  });
  app.addHook('onClose', (_instance, done) => {
    clearTimeout(grace);
    done();
  });
}
