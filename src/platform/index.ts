// The /v2 platform API: envelope errors for everything under /v2 (docs/rules.md#api-envelope, docs/rules.md#versioning),
// the reference, and the resource routes — registered from the registry only.
import { errorCodes, type FastifyInstance } from 'fastify';
import type { PlatformDeps } from './deps.ts';
import { API_RESOURCE_PATH, failureOf } from './authorization-server.ts';
import { sendFailure } from './envelope.ts';
import { guardedResource } from './guard.ts';
import { registerOpenApi } from './openapi.ts';
import { enforceRegistry, isDocsRoute, registerRegistryRoutes } from './registrar.ts';
import { allHandlers } from './handlers.ts';

export async function apiRoutes(server: FastifyInstance, deps: PlatformDeps): Promise<void> {
  // The API's bodies are JSON (its OpenAPI document says so): a form or plain-text body is
  // refused as such, rather than read by the pages' parsers and then judged by the schema.
  server.removeContentTypeParser(['text/plain', 'application/x-www-form-urlencoded']);
  // Routes without a body (a confirm, a delete) are called with an empty one and whatever
  // Content-Type the HTTP client adds (curl -d '', fetch with body ''): that is no body.
  server.addContentTypeParser('*', { parseAs: 'buffer' }, (request, body: Buffer, done) => {
    if (body.length === 0) return done(null, undefined);
    done(new errorCodes.FST_ERR_CTP_INVALID_MEDIA_TYPE(request.headers['content-type'] ?? ''), undefined);
  });
  // Cal.com's own clients send Content-Type: application/json on every request, a DELETE's
  // empty one too, and the platform (Express) reads an empty JSON body as none: so does a
  // route without a body here. A route that takes one still hears that its body is empty.
  const parseJson = server.getDefaultJsonParser('error', 'error');
  server.removeContentTypeParser('application/json');
  server.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    if (body === '' && request.routeOptions.schema?.body === undefined) return done(null, undefined);
    parseJson(request, body as string, done);
  });
  server.setErrorHandler((error, request, reply) => sendFailure(reply, failureOf(error, request)));
  // docs/rules.md#forms-and-pages: no /v2 answer with account data is kept by a cache; the reference
  // (/v2/docs, /v2/openapi.json) holds none and may be.
  // A callback hook, not an async one: it runs on every answer, and needs no promise.
  server.addHook('onSend', (request, reply, payload, done) => {
    if (!isDocsRoute(request.routeOptions.url ?? '')) reply.header('cache-control', 'no-store');
    done(null, payload);
  });
  enforceRegistry(server);
  await registerOpenApi(server, deps);
  registerRegistryRoutes(server, allHandlers(deps), deps.services.stores.api.access, deps.services.clock, guardedResource(deps, API_RESOURCE_PATH));
}
