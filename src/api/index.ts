// The /v2 platform API: envelope errors for everything under /v2 (SPEC §2 items 17, 21).
import type { FastifyError, FastifyInstance } from 'fastify';
import type { AppContext } from '../http/context.ts';
import { ApiError, sendApiError } from './envelope.ts';
import { meRoutes } from './me.ts';

export async function apiRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof ApiError) return sendApiError(reply, error.status, error.code, error.message);
    if (error.validation) {
      const first = error.validation[0];
      const field = first?.instancePath ? first.instancePath.slice(1).replace(/\//g, '.') : (first?.params as { missingProperty?: string; additionalProperty?: string })?.additionalProperty;
      const message = field ? `${field}: ${first?.message ?? 'is invalid'}` : `request body ${first?.message ?? 'is invalid'}`;
      return sendApiError(reply, 400, 'validation_error', message);
    }
    if (error.statusCode !== undefined && error.statusCode >= 400 && error.statusCode < 500) {
      return sendApiError(reply, error.statusCode, 'bad_request', error.message);
    }
    request.log.error({ err: error }, 'api request failed');
    return sendApiError(reply, 500, 'internal_error', 'the server could not complete the request; try again');
  });
  await meRoutes(app, ctx);
}
