// The /v2 platform API: envelope errors for everything under /v2 (SPEC §2 items 17, 21),
// the reference, and the resource routes — registered from the registry only.
import type { FastifyError, FastifyInstance } from 'fastify';
import type { AppContext } from '../http/context.ts';
import { ServiceError } from '../services/errors.ts';
import { createApiAccessStore } from '../storage/repositories/api-access.ts';
import { ApiError, sendApiError, type ApiErrorCode } from './envelope.ts';
import { registerOpenApi } from './openapi.ts';
import { enforceRegistry, registerRegistryRoutes } from './registrar.ts';
import { allHandlers } from './routes/index.ts';

const serviceErrors: Record<ServiceError['kind'], [number, ApiErrorCode]> = {
  validation: [400, 'validation_error'],
  not_found: [404, 'not_found'],
  conflict: [409, 'conflict'],
  forbidden: [403, 'forbidden'],
};

interface AjvError {
  instancePath?: string;
  message?: string;
  params?: { missingProperty?: string; additionalProperty?: string };
}

/** STYLE practice 5: a validation failure names the field, as `field.path: problem`. */
function validationMessage(first: AjvError | undefined, context: string | undefined): string {
  const parent = first?.instancePath ? first.instancePath.slice(1).replace(/\//g, '.') : '';
  const missing = first?.params?.missingProperty;
  if (missing !== undefined) return `${parent ? parent + '.' : ''}${missing}: is required`;
  const field = parent || first?.params?.additionalProperty;
  const where = context === 'querystring' ? 'query string' : context === 'params' ? 'path' : 'request body';
  return field ? `${field}: ${first?.message ?? 'is invalid'}` : `${where} ${first?.message ?? 'is invalid'}`;
}

export async function apiRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof ApiError) return sendApiError(reply.headers(error.headers), error.status, error.code, error.message);
    if (error instanceof ServiceError) {
      const [status, code] = serviceErrors[error.kind];
      return sendApiError(reply, status, code, error.message);
    }
    if (error.validation) return sendApiError(reply, 400, 'validation_error', validationMessage(error.validation[0] as AjvError, error.validationContext));
    if (error.statusCode !== undefined && error.statusCode >= 400 && error.statusCode < 500) {
      return sendApiError(reply, error.statusCode, 'bad_request', error.message);
    }
    request.log.error({ err: error }, 'api request failed');
    return sendApiError(reply, 500, 'internal_error', 'the server could not complete the request; try again');
  });
  enforceRegistry(app);
  await registerOpenApi(app, ctx);
  registerRegistryRoutes(app, allHandlers(ctx), createApiAccessStore(ctx.services.db), ctx.services.clock);
}
