// The platform's published API v2 description, kept beside the project (../shared/reference;
// CI always has it, a clone alone does not): the operations its OAuth documentation ties to a
// scope, a request built the platform's way for each, and a validator of its answers. Tests
// that use it are skipped, and say so, when it is absent.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv } from 'ajv';
import formats from 'ajv-formats';

// ajv-formats is CommonJS: its plugin is the default export of the module object.
const addFormats = formats.default;

export const referenceDir = process.env.CALCOM_REFERENCE_DIR ?? fileURLToPath(new URL('../../../shared/reference/', import.meta.url));
const openApiFile = join(referenceDir, 'calcom-api-v2.openapi.json');
const operationsFile = join(referenceDir, 'calcom-oauth-scoped-operations.tsv');
export const referenceAvailable = existsSync(openApiFile) && existsSync(operationsFile);

type Schema = Record<string, any>;

export interface ReferenceOperation {
  scope: string;
  method: string;
  /** The platform's path, `{param}` style. */
  path: string;
  operationId: string;
  /** The same path in the registry's `:param` style, parameter names erased: `/v2/teams/:/event-types`. */
  shape: string;
  /** Undefined for the few operations the OAuth documentation names and the OpenAPI file lacks. */
  spec?: Schema;
  /** The `cal-api-version` the platform requires for this operation, when it does. */
  apiVersion?: string;
}

/** `/v2/teams/{teamId}/x` and `/v2/teams/:teamId/x` both become `/v2/teams/:/x`. */
export const pathShape = (path: string) => path.replace(/\{\w+\}|:\w+/g, ':');

/**
 * Where the file contradicts the platform's evident behaviour, the behaviour: a `pattern` that
 * is the name of the platform's constant rather than a regular expression (`TIME_FORMAT_HH_MM`,
 * a time written HH:MM), and an `enum` of item values set on the array itself (schedules'
 * `days`), which no array can equal: it stays on the items.
 */
const PATTERN_CONSTANTS: Record<string, string> = { TIME_FORMAT_HH_MM: '^[0-9]{2}:[0-9]{2}$' };
function behaviour(node: Schema): Schema {
  const out = { ...node };
  if (typeof out.pattern === 'string' && PATTERN_CONSTANTS[out.pattern]) out.pattern = PATTERN_CONSTANTS[out.pattern];
  if (out.type === 'array' && out.enum && out.items) delete out.enum;
  return out;
}

const SCALARS = new Set(['boolean', 'number', 'string']);

/**
 * OpenAPI 3.0's `nullable` as JSON Schema says it: null is one more type the value may have. Two
 * habits of the file's generator are read as the platform answers:
 * - its `oneOf` lists overlap and name no discriminator (every location matches
 *   OutputOrganizersDefaultAppLocation, which requires only `type`; every booking field the
 *   guests field, which requires only `slug`, `type`, `isDefault`), so no answer could match exactly
 *   one: it means any one of them (`anyOf`);
 * - a property typed "object" whose example or default is a scalar (`isDefault`, true;
 *   `slotInterval`, 60) is that scalar: the generator's word for a type it could not name.
 */
function toJsonSchema(node: unknown): any {
  if (Array.isArray(node)) return node.map(toJsonSchema);
  if (node === null || typeof node !== 'object') return node;
  const { nullable, oneOf, ...rest } = behaviour(node as Schema);
  if (oneOf !== undefined) rest.anyOf = oneOf;
  const scalar = typeof (rest.example ?? rest.default);
  if (rest.type === 'object' && !rest.properties && SCALARS.has(scalar)) rest.type = ['object', scalar];
  const converted = Object.fromEntries(Object.entries(rest).map(([k, v]) => [k, toJsonSchema(v)]));
  if (nullable === true && Array.isArray(converted.type)) return { ...converted, type: [...converted.type, 'null'] };
  if (nullable !== true) return converted;
  if (typeof converted.type === 'string') return { ...converted, type: [converted.type, 'null'], ...(converted.enum ? { enum: [...converted.enum, null] } : {}) };
  return { anyOf: [converted, { type: 'null' }] };
}

/**
 * Fields the file types otherwise than the platform answers them, each contradicted by the file
 * itself: an event type's `users` and a team event type's `hosts` are people (the requests'
 * `hosts` are Host objects; the generator wrote "string" for an array of a class), the email
 * booking field's `required` is a boolean like every other field's, and a team's branding is
 * null until it is set (a team is made without it, and the file's own team answers,
 * TeamOutputDto, leave it out), as is a webhook's payload template until one is given.
 */
function readAsAnswered(components: Schema): Schema {
  const copy = structuredClone(components);
  const schemas = copy.schemas as Record<string, Schema>;
  const person = { type: 'object', properties: { id: { type: 'number' }, userId: { type: 'number' }, name: { type: 'string' }, username: { type: 'string' } } };
  if (schemas.EventTypeOutput_2024_06_14?.properties?.users) schemas.EventTypeOutput_2024_06_14.properties.users.items = person;
  if (schemas.TeamEventTypeOutput_2024_06_14?.properties?.hosts) schemas.TeamEventTypeOutput_2024_06_14.properties.hosts.items = person;
  if (schemas.EmailDefaultFieldOutput_2024_06_14?.properties?.required) schemas.EmailDefaultFieldOutput_2024_06_14.properties.required = { type: 'boolean' };
  for (const field of ['bannerUrl', 'logoUrl', 'weekStart', 'brandColor', 'darkBrandColor', 'theme']) {
    const property = schemas.EventTypeTeam?.properties?.[field];
    if (property) property.nullable = true;
  }
  // A webhook made without a payload template has none: the file's own create and update
  // inputs leave `payloadTemplate` out, and the platform answers it null then.
  for (const dto of ['EventTypeWebhookOutputDto', 'TeamWebhookOutputDto', 'UserWebhookOutputDto', 'OAuthClientWebhookOutputDto']) {
    const property = schemas[dto]?.properties?.payloadTemplate;
    if (property) property.nullable = true;
  }
  pinBookingFieldVariants(schemas);
  return copy;
}

/**
 * The booking field variants overlap (the guests field requires only `slug`, `type` and
 * `isDefault`, so every field is a guests field once oneOf is read as anyOf), yet each states
 * its discriminator in the file: a default field's `slug` and `type` defaults (`name`/`name`,
 * `location`/`radioInput`, `notes`/`textarea`, …) with `isDefault` true, a custom field's `type`
 * ("only allowed value for type is `phone`", its example) with `isDefault` false. Pinned, each
 * field matches its own variant or none, and is checked field by field against it.
 */
function pinBookingFieldVariants(schemas: Record<string, Schema>): void {
  for (const [name, variant] of Object.entries(schemas)) {
    if (!/FieldOutput_2024_06_14$/.test(name)) continue;
    const p = variant.properties as Record<string, Schema>;
    const isDefault = p.isDefault?.default === true;
    if (isDefault) {
      p.slug = { type: 'string', enum: [p.slug!.default] };
      if (p.type?.default !== undefined) p.type = { type: 'string', enum: [p.type.default] };
    } else {
      p.type = { type: 'string', enum: [p.type!.example] };
    }
    p.isDefault = { type: 'boolean', enum: [isDefault] };
    variant.required = [...new Set([...(variant.required ?? []), 'slug', 'type', 'isDefault'])];
  }
}

/**
 * Scalars the file types "object": the destination calendar's id is the row's number in the
 * platform's answers (its class declares `id: number` and the generator lost the type), and so
 * is an event type's seatsPerTimeSlot (the file's own Seats_2024_06_14 types it "number").
 */
const SCALARS_TYPED_OBJECT: [schema: string, property: string, type: string][] = [
  ['DestinationCalendar', 'id', 'number'],
  ['EventTypeOutput_2024_06_14', 'seatsPerTimeSlot', 'number'],
  ['TeamEventTypeOutput_2024_06_14', 'seatsPerTimeSlot', 'number'],
];

export function loadReference() {
  const doc = JSON.parse(readFileSync(openApiFile, 'utf8')) as Schema;
  for (const [name, property, type] of SCALARS_TYPED_OBJECT) {
    const declared = doc.components?.schemas?.[name]?.properties?.[property];
    if (declared?.type === 'object') declared.type = type;
  }
  const lines = readFileSync(operationsFile, 'utf8').trim().split('\n').slice(1);
  const operations: ReferenceOperation[] = lines.map((line) => {
    const [scope, method, path, operationId] = line.split('\t') as [string, string, string, string];
    const spec = doc.paths[path]?.[method.toLowerCase()] as Schema | undefined;
    const versionHeader = (spec?.parameters as Schema[] | undefined)?.find((p) => p.in === 'header' && p.name === 'cal-api-version');
    // A few operations give the version only in the header's words ("Must be set to 2024-08-13").
    const apiVersion = versionHeader?.schema?.default ?? (versionHeader?.description as string | undefined)?.match(/Must be set to (\d{4}-\d{2}-\d{2})/)?.[1];
    return { scope, method, path, operationId, shape: pathShape(path), spec, apiVersion };
  });

  const ajv = new Ajv({ strict: false, allErrors: true });
  addFormats(ajv);
  ajv.addSchema({ $id: 'calcom', components: toJsonSchema(readAsAnswered(doc.components)) });
  const resolve = (schema: Schema): Schema => {
    let s = schema;
    while (s.$ref) s = s.$ref.split('/').slice(1).reduce((node: Schema, key: string) => node[key], doc);
    return s;
  };
  const refsToDocument = (schema: Schema): Schema => JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', '"calcom#/components/'));

  /**
   * Lists the file types as one item: their `data` is declared with the item's class and no
   * `isArray`, while the platform answers an array, as the same list under an organization's team
   * is documented (OrgTeamMembershipsOutputResponseDto).
   */
  const LISTS_DOCUMENTED_AS_ONE = new Set(['GET /v2/teams/{teamId}/memberships', 'GET /v2/organizations/{orgId}/memberships']);
  function listOfOne(op: ReferenceOperation, schema: Schema): Schema {
    if (!LISTS_DOCUMENTED_AS_ONE.has(`${op.method} ${op.path}`)) return schema;
    const envelope = resolve(schema);
    return { ...envelope, properties: { ...envelope.properties, data: { type: 'array', items: envelope.properties.data } } };
  }

  /** Validates a 2xx answer: null when it matches, otherwise the first few mismatches. */
  function checkResponse(op: ReferenceOperation, status: number, body: unknown): string | null {
    const documented = op.spec?.responses?.[String(status)];
    if (!documented) return `status ${status} is not documented (${Object.keys(op.spec?.responses ?? {}).join(', ')})`;
    const schema = documented.content?.['application/json']?.schema;
    if (!schema) return null;
    const validate = ajv.compile(toJsonSchema(refsToDocument(listOfOne(op, schema))));
    if (validate(body)) return null;
    return (validate.errors ?? [])
      .slice(0, 4)
      .map((e: { instancePath: string; message?: string }) => `${e.instancePath || '/'} ${e.message}`)
      .join('; ');
  }

  /**
   * A value for the schema the platform's way: `fill` answers for a field or parameter by name
   * (ids of real fixtures, a future start), otherwise the documented example, default or enum.
   */
  function sample(schema: Schema, fill: (name: string) => unknown, name?: string, depth = 0): unknown {
    if (name !== undefined) {
      const filled = fill(name);
      if (filled !== undefined) return filled;
    }
    const s = resolve(schema);
    if (depth > 6) return undefined;
    if (s.allOf) return Object.assign({}, ...s.allOf.map((part: Schema) => sample(part, fill, undefined, depth + 1)));
    if (s.oneOf ?? s.anyOf) return sample((s.oneOf ?? s.anyOf)[0], fill, undefined, depth + 1);
    if (s.type === 'object' || s.properties) {
      const out: Record<string, unknown> = {};
      for (const key of s.required ?? []) out[key] = sample(s.properties?.[key] ?? {}, fill, key, depth + 1);
      return out;
    }
    if (s.example !== undefined) return s.example;
    if (s.default !== undefined) return s.default;
    if (s.enum) return s.enum[0];
    if (s.type === 'array') return [sample(s.items ?? {}, fill, undefined, depth + 1)];
    if (s.type === 'number' || s.type === 'integer') return s.minimum ?? 1;
    if (s.type === 'boolean') return true;
    if (s.format === 'email') return 'someone@example.com';
    return 'text';
  }

  /**
   * The body of the same kind of write elsewhere, for an operation the file documents without one
   * (or not at all): POST …/ooo of a user under the organization stands for POST /v2/me/ooo.
   */
  function siblingBody(op: ReferenceOperation): Schema | undefined {
    if (op.method !== 'POST' && op.method !== 'PATCH') return undefined;
    // The resource's own segment, with its id when the path ends in one: `ooo`, `private-links/:`.
    const tail = (path: string) => pathShape(path).split('/').slice(path.endsWith('}') ? -2 : -1).join('/');
    for (const [path, item] of Object.entries(doc.paths as Record<string, Record<string, Schema>>)) {
      const other = item[op.method.toLowerCase()];
      if (other?.requestBody && path !== op.path && tail(path) === tail(op.path)) return other.requestBody;
    }
    return undefined;
  }

  /** The platform's request for `op`: its required query parameters and its body. */
  function request(op: ReferenceOperation, fill: (name: string) => unknown) {
    const query: Record<string, string> = {};
    for (const p of (op.spec?.parameters ?? []) as Schema[]) {
      if (p.in === 'query' && p.required) query[p.name] = String(sample(p.schema ?? {}, fill, p.name));
    }
    const bodySchema = (op.spec?.requestBody ?? siblingBody(op))?.content?.['application/json']?.schema as Schema | undefined;
    let body = bodySchema ? sample(bodySchema, fill) : undefined;
    // An update whose fields are all optional still changes something: its first documented field.
    if (bodySchema && body && typeof body === 'object' && Object.keys(body).length === 0) {
      const [first] = Object.entries((resolve(bodySchema).properties ?? {}) as Record<string, Schema>);
      if (first) body = { [first[0]]: sample(first[1], fill, first[0]) };
    }
    return { query, body };
  }

  /**
   * One booking field of each kind the platform's event types take, sampled from the file's
   * input variants (CreateEventTypeInput_2024_06_14's bookingFields): the default fields as
   * documented, each custom field under a slug of its own (the file's example, `some-slug`,
   * is every custom field's).
   */
  function bookingFieldExamples(): Record<string, unknown>[] {
    const variants = resolve(doc.components.schemas.CreateEventTypeInput_2024_06_14.properties.bookingFields.items).oneOf as Schema[];
    return variants.map((variant) => {
      const field = sample(variant, () => undefined) as Record<string, unknown>;
      return field.slug === 'some-slug' ? { ...field, slug: `${String(field.type)}-field` } : field;
    });
  }

  /**
   * An operation the OAuth documentation ties to no scope (a public one, such as GET /v2/slots),
   * read from the file itself; undefined when the file lacks it.
   */
  function publicOperation(method: string, path: string): ReferenceOperation | undefined {
    const spec = doc.paths[path]?.[method.toLowerCase()] as Schema | undefined;
    if (spec === undefined) return undefined;
    return { scope: 'public', method, path, operationId: spec.operationId as string, shape: pathShape(path), spec };
  }

  return { operations, checkResponse, request, publicOperation, bookingFieldExamples };
}
