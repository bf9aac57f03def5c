// The /v2 platform API: envelope errors for everything under /v2 (SPEC §2 items 17, 21),
// the reference, and the resource routes — registered from the registry only.
import { errorCodes, type FastifyError, type FastifyInstance } from 'fastify';
import type { AppContext } from '../context.ts';
import { answerStoreUnavailable, API_RESOURCE_PATH, requestRefusal, ServiceError, StoreUnavailable } from './authorization-server.ts';
import { ApiError, sendApiError, sendUnavailable, type ApiErrorCode } from './envelope.ts';
import { guardedResource } from './guard.ts';
import { registerOpenApi } from './openapi.ts';
import { enforceRegistry, isDocsRoute, registerRegistryRoutes } from './registrar.ts';
import { allHandlers } from './handlers.ts';

const serviceErrors: Record<ServiceError['kind'], [number, ApiErrorCode]> = {
  validation: [400, 'validation_error'],
  not_found: [404, 'not_found'],
  conflict: [409, 'conflict'],
  forbidden: [403, 'forbidden'],
};

interface AjvError {
  instancePath?: string;
  message?: string;
  /** Set by propertyNames: the field a PATCH cannot change (schemas.ts refusingUnknownFields). */
  propertyName?: string;
  params?: { missingProperty?: string; additionalProperty?: string; allowedValues?: unknown[] };
}

/** STYLE practice 5: a validation failure names the field, as `field.path: problem`. */
function validationMessage(first: AjvError | undefined, context: string | undefined): string {
  const parent = first?.instancePath ? first.instancePath.slice(1).replace(/\//g, '.') : '';
  const missing = first?.params?.missingProperty;
  // SPEC §2 item 27: a field the request cannot change is named, with the ones it can.
  if (first?.propertyName !== undefined) {
    const fields = (first.params?.allowedValues ?? []).join(', ');
    return `${parent ? parent + '.' : ''}${first.propertyName}: cannot be changed by this request; it changes ${fields}`;
  }
  if (missing !== undefined) return `${parent ? parent + '.' : ''}${missing}: is required`;
  const field = parent || first?.params?.additionalProperty;
  const where = context === 'querystring' ? 'query string' : context === 'params' ? 'path' : 'request body';
  return field ? `${field}: ${first?.message ?? 'is invalid'}` : `${where} ${first?.message ?? 'is invalid'}`;
}

export async function apiRoutes(server: FastifyInstance, deps: AppContext): Promise<void> {
  // The API's bodies are JSON (its OpenAPI document says so): a form or plain-text body is
  // refused as such, rather than read by the pages' parsers and then judged by the schema.
  server.removeContentTypeParser(['text/plain', 'application/x-www-form-urlencoded']);
  // Routes without a body (a confirm, a delete) are called with an empty one and whatever
  // Content-Type the HTTP client adds (curl -d '', fetch with body ''): that is no body.
  server.addContentTypeParser('*', { parseAs: 'buffer' }, (request, body: Buffer, done) => {
    if (body.length === 0) return done(null, undefined);
    done(new errorCodes.FST_ERR_CTP_INVALID_MEDIA_TYPE(request.headers['content-type'] ?? ''), undefined);
  });
  server.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof ApiError) return sendApiError(reply.headers(error.headers), error.status, error.code, error.message);
    if (error instanceof ServiceError) {
      const [status, code] = serviceErrors[error.kind];
      return sendApiError(reply, status, code, error.message);
    }
    if (error instanceof StoreUnavailable) return answerStoreUnavailable(error, request, reply, sendUnavailable);
    if (error.validation) return sendApiError(reply, 400, 'validation_error', validationMessage(error.validation[0] as AjvError, error.validationContext));
    const refusal = requestRefusal(error);
    if (refusal !== undefined) return sendApiError(reply, error.statusCode!, 'bad_request', refusal);
    request.log.error({ err: error }, 'api request failed');
    return sendApiError(reply, 500, 'internal_error', 'the server could not complete the request; try again');
  });
  // SPEC §2 item 27: no /v2 answer with account data is kept by a cache; the reference
  // (/v2/docs, /v2/openapi.json) holds none and may be.
  server.addHook('onSend', async (request, reply, payload) => {
    if (!isDocsRoute(request.routeOptions.url ?? '')) reply.header('cache-control', 'no-store');
    return payload;
  });
  enforceRegistry(server);
  await registerOpenApi(server, deps);
  registerRegistryRoutes(server, allHandlers(deps), deps.services.stores.api.access, deps.services.clock, guardedResource(deps, API_RESOURCE_PATH));
}
