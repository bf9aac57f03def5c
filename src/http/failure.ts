// What a thrown error means to the caller, for every surface alike: its kind in the error
// table (http/errors.ts), a status, the words the caller reads and the headers that go with
// them. An outage and a fault are logged here, once, whichever surface answers; a fault's
// cause is never in the answer (SECURITY.md).
import type { FastifyError, FastifyRequest } from 'fastify';
import { ServiceError } from '../services/errors.ts';
import { StoreUnavailable } from '../services/store-unavailable.ts';
import { requestRefusal } from './body-errors.ts';
import { errorTable, Refusal, type ErrorKind } from './errors.ts';

export interface Failure {
  readonly kind: ErrorKind;
  readonly status: number;
  /** What the caller is told: what to fix, or what to do meanwhile. */
  readonly message: string;
  readonly headers: Readonly<Record<string, string>>;
  /** The framework's own words about a request it could not read, for a page's small print. */
  readonly details?: string;
}

/** A failure of `kind`, with the table's status and words unless it has its own. */
export function failure(kind: ErrorKind, message?: string, own: { status?: number; headers?: Record<string, string>; details?: string } = {}): Failure {
  const answers = errorTable[kind];
  return {
    kind,
    status: own.status ?? answers.status,
    message: message ?? answers.message ?? '',
    headers: own.headers ?? {},
    ...(own.details === undefined ? {} : { details: own.details }),
  };
}

interface AjvError {
  instancePath?: string;
  message?: string;
  /** Set by propertyNames: a field the request cannot change (platform/schemas.ts refusingUnknownFields). */
  propertyName?: string;
  params?: { missingProperty?: string; additionalProperty?: string; allowedValues?: unknown[] };
}

/** ARCHITECTURE.md#validation-names-the-field: a validation failure names the field, as `field.path: problem`. */
function validationMessage(first: AjvError | undefined, context: string | undefined): string {
  const parent = first?.instancePath ? first.instancePath.slice(1).replace(/\//g, '.') : '';
  const missing = first?.params?.missingProperty;
  // A field the request cannot change is named, with the ones it can.
  if (first?.propertyName !== undefined) {
    const fields = (first.params?.allowedValues ?? []).join(', ');
    return `${parent ? parent + '.' : ''}${first.propertyName}: cannot be changed by this request; it changes ${fields}`;
  }
  if (missing !== undefined) return `${parent ? parent + '.' : ''}${missing}: is required`;
  const field = parent || first?.params?.additionalProperty;
  const where = context === 'querystring' ? 'query string' : context === 'params' ? 'path' : 'request body';
  return field ? `${field}: ${first?.message ?? 'is invalid'}` : `${where} ${first?.message ?? 'is invalid'}`;
}

/**
 * The failure `error` stands for. `reads` is what the surface's endpoints read, named when a
 * body comes with another Content-Type.
 */
export function failureOf(error: unknown, request: Pick<FastifyRequest, 'log'>, reads = 'application/json'): Failure {
  if (error instanceof Refusal) return failure(error.kind, error.message, { headers: { ...error.headers } });
  if (error instanceof ServiceError) return failure(error.kind, error.message);
  if (error instanceof StoreUnavailable) {
    request.log.warn({ err: error.driverError }, 'database unavailable');
    return failure('unavailable', undefined, { headers: { 'retry-after': String(StoreUnavailable.retryAfterSeconds) } });
  }
  if (error instanceof Error) {
    const raised = error as FastifyError;
    if (raised.code?.startsWith('FST_CSRF')) return failure('form_expired');
    if (raised.validation) return failure('validation', validationMessage(raised.validation[0] as AjvError, raised.validationContext));
    const refusal = requestRefusal(raised, reads);
    if (refusal !== undefined) return failure('bad_request', refusal, { status: raised.statusCode!, details: raised.message });
  }
  request.log.error({ err: error }, 'request failed');
  return failure('internal');
}
