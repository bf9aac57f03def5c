// JSON schemas shared by the /v2 routes: they validate input (Fastify/ajv, errors mapped to
// 400 validation_error naming the field), shape output (fast-json-stringify drops anything
// not declared, so no internal column leaks) and become the OpenAPI document.
import { FINITE } from './finite-numbers.ts';

export type JsonSchema = Record<string, unknown>;

export const ID_PATTERN = '^[0-9A-Za-z_-]{1,64}$';

export const idParam: JsonSchema = { type: 'string', pattern: ID_PATTERN };

/**
 * docs/rules.md#numbered-ids: a numbered id in an answer. Stored as decimal text, written as
 * this number (numbered-ids.ts), as the platform's schemas type it.
 */
export const numberedId: JsonSchema = { type: 'integer', minimum: 1 };

/**
 * docs/rules.md#numbered-ids: a numbered id in a request, as the platform sends it (a number)
 * or as text; the validator's coercion makes either the text the stores take.
 */
export const numberedIdInput: JsonSchema = { type: 'string', pattern: '^[1-9][0-9]{0,15}$', description: 'A whole number (an id, as the answers give it)' };

export const str = (min: number, max: number, extra: JsonSchema = {}): JsonSchema => ({ type: 'string', minLength: min, maxLength: max, ...extra });
export const int = (min: number, max: number, extra: JsonSchema = {}): JsonSchema => ({ type: 'integer', minimum: min, maximum: max, [FINITE]: true, ...extra });
export const bool: JsonSchema = { type: 'boolean' };
export const email: JsonSchema = { type: 'string', format: 'email', maxLength: 254 };
export const dateTime: JsonSchema = { type: 'string', format: 'date-time' };
export const nullable = (schema: JsonSchema): JsonSchema => ({ ...schema, type: [schema.type as string, 'null'] });
export const timeZone: JsonSchema = { type: 'string', minLength: 1, maxLength: 64, description: 'IANA time zone, e.g. Europe/Berlin' };
export const role: JsonSchema = { type: 'string', enum: ['member', 'admin', 'owner'] };

/** An object that accepts only the listed fields (extra fields are dropped, RFC 6749 §3.2 style; a PATCH refuses them instead, see refusingUnknownFields). */
export function object(properties: Record<string, JsonSchema>, required: string[] = [], extra: JsonSchema = {}): JsonSchema {
  return { type: 'object', additionalProperties: false, properties, ...(required.length ? { required } : {}), ...extra };
}

/**
 * An object schema with more fields after its own: an answer that says what a shared view says
 * and more. The added fields are required unless `required` names fewer; the rest of the
 * schema (its description, additionalProperties) is kept as it is.
 */
export function withFields(schema: JsonSchema, properties: Record<string, JsonSchema>, required: string[] = Object.keys(properties)): JsonSchema {
  const allRequired = [...((schema.required as string[] | undefined) ?? []), ...required];
  return { ...schema, properties: { ...(schema.properties as Record<string, JsonSchema>), ...properties }, ...(allRequired.length ? { required: allRequired } : {}) };
}

/**
 * docs/rules.md#forms-and-pages: a PATCH that names a field it cannot change is 400 validation_error naming
 * the field, never a silent 200. Fastify's Ajv drops the fields additionalProperties: false
 * refuses (removeAdditional); propertyNames is checked before that and refuses them instead,
 * at every depth. The registrar applies this to every PATCH body.
 */
export function refusingUnknownFields(schema: JsonSchema): JsonSchema {
  const out: JsonSchema = { ...schema };
  const properties = schema.properties as Record<string, JsonSchema> | undefined;
  if (properties !== undefined) {
    out.properties = Object.fromEntries(Object.entries(properties).map(([name, s]) => [name, refusingUnknownFields(s)]));
    if (schema.additionalProperties === false) out.propertyNames = { enum: Object.keys(properties) };
  }
  if (schema.items !== undefined) out.items = refusingUnknownFields(schema.items as JsonSchema);
  return out;
}

/** A PATCH body: the same fields, all optional, at least one. */
export function patchOf(properties: Record<string, JsonSchema>): JsonSchema {
  return object(properties, [], { minProperties: 1 });
}

export const arrayOf = (items: JsonSchema, min = 0, max = 100): JsonSchema => ({ type: 'array', items, minItems: min, maxItems: max });

/**
 * Pagination of every list route: the project's limit/offset, and Cal.com API v2's take/skip,
 * which win when both are sent (the registrar folds them into limit/offset: pageOf).
 */
export const listQuery = (extra: Record<string, JsonSchema> = {}): JsonSchema =>
  object({
    limit: int(1, 100, { default: 50 }),
    offset: int(0, 1_000_000, { default: 0 }),
    take: int(1, 100, { description: 'As limit, the platform\'s name; wins over limit when both are sent' }),
    skip: int(0, 1_000_000, { description: 'As offset, the platform\'s name; wins over offset when both are sent' }),
    ...extra,
  });

/** A list query with the platform's take/skip folded into limit/offset. */
export function pageOf(query: unknown): unknown {
  if (query === null || typeof query !== 'object') return query;
  const { take, skip, ...rest } = query as Record<string, unknown>;
  return { ...rest, ...(take !== undefined ? { limit: take } : {}), ...(skip !== undefined ? { offset: skip } : {}) };
}

export interface ListQuery {
  limit: number;
  offset: number;
}

export const deleted: JsonSchema = object({ id: { type: 'string' }, deleted: bool }, ['id', 'deleted']);
/** The answer of a delete of what the platform numbers (docs/rules.md#numbered-ids). */
export const deletedNumbered: JsonSchema = object({ id: numberedId, deleted: bool }, ['id', 'deleted']);

const errorBody = (description: string): JsonSchema => ({
  description,
  type: 'object',
  required: ['status', 'timestamp', 'path', 'error'],
  properties: {
    status: { type: 'string', enum: ['error'] },
    timestamp: { type: 'string', format: 'date-time' },
    path: { type: 'string', description: 'the path of the request, without its query string' },
    error: object({ code: { type: 'string' }, message: { type: 'string' } }, ['code', 'message']),
  },
});

/** The failures an operation can answer with, as OpenAPI documents them (docs/rules.md#api-envelope). */
export const errorResponses = {
  400: errorBody('validation_error: the message names the field to fix'),
  401: errorBody('unauthorized (no token) or invalid_token (malformed, expired, revoked, or its application suspended); WWW-Authenticate: Bearer'),
  403: errorBody('insufficient_scope (WWW-Authenticate names the scope needed) or forbidden (not a member of the team or organization with the role needed)'),
  404: errorBody('not_found: no such resource, or not one the token may see'),
  409: errorBody('conflict: the resource is not in a state that allows this'),
};

/** For operations under a rate limit (docs/rules.md#rate-limits). */
export const rateLimitedResponse = errorBody('rate_limited: too many requests; Retry-After says in how many seconds to try again');

const count = { type: 'integer', minimum: 0 };

/** The platform's PaginationMetaDto, beside data in a paged list's answer. */
export const paginationView: JsonSchema = object(
  {
    totalItems: { ...count, description: 'Items matching the query, on every page' },
    remainingItems: { ...count, description: 'Items after this page' },
    returnedItems: { ...count, description: 'Items on this page' },
    itemsPerPage: { type: 'integer', minimum: 1, description: 'limit (take)' },
    currentPage: { type: 'integer', minimum: 1 },
    totalPages: count,
    hasNextPage: bool,
    hasPreviousPage: bool,
  },
  ['totalItems', 'remainingItems', 'returnedItems', 'itemsPerPage', 'currentPage', 'totalPages', 'hasNextPage', 'hasPreviousPage'],
);

export function successEnvelope(data: JsonSchema, paged = false): JsonSchema {
  return {
    type: 'object',
    required: ['status', 'data', ...(paged ? ['pagination'] : [])],
    properties: { status: { type: 'string', enum: ['success'] }, data, ...(paged ? { pagination: paginationView } : {}) },
  };
}
