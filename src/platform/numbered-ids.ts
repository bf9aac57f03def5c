// docs/rules.md#numbered-ids: the tables keep a numbered id as decimal text (migration 017), and
// the API writes it as the number the platform's schema says it is. The conversion happens
// once, at the boundary, led by the operation's own response schema: where it declares an
// integer and the handler gave decimal text, the text becomes the number. Handlers, stores
// and the MCP tools keep one type for an id, and the published schema is the only list of
// which fields are numbered.
import type { JsonSchema } from './schemas.ts';

const DECIMAL = /^[1-9][0-9]{0,15}$/;

/** A numbered id as a number, where it is one: what the platform's answers and events write. */
export function numbered(id: string): number | string {
  return DECIMAL.test(id) && Number.isSafeInteger(Number(id)) ? Number(id) : id;
}

/** numbered(), for a reference that may be absent. */
export const numberedOrNull = (id: string | null): number | string | null => (id === null ? null : numbered(id));

const typesOf = (schema: JsonSchema): string[] => [schema.type ?? []].flat() as string[];

/** The schemas under a schema that numberedAsSchema follows: its items, properties and additional properties. */
function childrenOf(schema: JsonSchema): JsonSchema[] {
  const properties = schema.properties as Record<string, JsonSchema> | undefined;
  const rest = typeof schema.additionalProperties === 'object' ? (schema.additionalProperties as JsonSchema) : undefined;
  return [schema.items as JsonSchema | undefined, ...Object.values(properties ?? {}), rest].filter((s): s is JsonSchema => typeof s === 'object' && s !== null);
}

/** Per schema, whether an integer is declared anywhere under it; decided once, as schemas do not change. */
const declaresInteger = new WeakMap<JsonSchema, boolean>();

/**
 * Whether `value` could change under `schema`: only where an integer is declared can text become
 * a number. Each schema is walked once, its answer kept; a schema that holds itself is walked
 * once per node (the visited set), not forever.
 */
function mayNumber(schema: JsonSchema): boolean {
  const known = declaresInteger.get(schema);
  if (known !== undefined) return known;
  const visited = new Set<JsonSchema>([schema]);
  const pending = [schema];
  let found = false;
  while (!found && pending.length > 0) {
    const next = pending.pop()!;
    if (typesOf(next).includes('integer') || declaresInteger.get(next) === true) found = true;
    else for (const child of childrenOf(next)) if (!visited.has(child) && declaresInteger.get(child) !== false) (visited.add(child), pending.push(child));
  }
  declaresInteger.set(schema, found);
  return found;
}

/** What numberedAsSchema reads of a schema, read once per schema: the walk runs on every /v2 answer. */
interface Shape {
  /** Whether text can become a number anywhere under the schema (mayNumber). */
  may: boolean;
  integer: boolean;
  items: JsonSchema | undefined;
  properties: Record<string, JsonSchema> | undefined;
  rest: JsonSchema | undefined;
}
const shapes = new WeakMap<JsonSchema, Shape>();

function shapeOf(schema: JsonSchema): Shape {
  let shape = shapes.get(schema);
  if (shape === undefined) {
    shape = {
      may: mayNumber(schema),
      integer: typesOf(schema).includes('integer'),
      items: schema.items as JsonSchema | undefined,
      properties: schema.properties as Record<string, JsonSchema> | undefined,
      rest: typeof schema.additionalProperties === 'object' ? (schema.additionalProperties as JsonSchema) : undefined,
    };
    shapes.set(schema, shape);
  }
  return shape;
}

/**
 * `value` as `schema` describes it, numbered ids as numbers; everything else as it was. Where
 * the schema declares no integer (most of a /v2 answer, or all of it), the value is returned
 * as it is, not copied: the walk and the copies go only where an id may become a number.
 */
export function numberedAsSchema(schema: JsonSchema | undefined, value: unknown): unknown {
  if (schema === undefined || value === null || value === undefined || typeof schema !== 'object') return value;
  const shape = shapeOf(schema);
  if (!shape.may) return value;
  if (typeof value === 'string') return shape.integer ? numbered(value) : value;
  if (Array.isArray(value)) {
    const items = shape.items;
    return items === undefined ? value : value.map((v) => numberedAsSchema(items, v));
  }
  if (typeof value === 'object') {
    const { properties, rest } = shape;
    if (properties === undefined && rest === undefined) return value;
    const out: Record<string, unknown> = {};
    const record = value as Record<string, unknown>;
    for (const key of Object.keys(record)) out[key] = numberedAsSchema(properties?.[key] ?? rest, record[key]);
    return out;
  }
  return value;
}

/**
 * The other way, for an MCP tool's arguments: a whole number where the tool's schema takes
 * text (an id, as the answers write it) becomes that text, as the route's validation coerces
 * it (Fastify's Ajv, coerceTypes), so a tool takes back the ids its answers gave.
 */
export function numbersAsSchemaText(schema: JsonSchema | undefined, value: unknown): unknown {
  if (schema === undefined || value === null || value === undefined) return value;
  if (typeof value === 'number') return Number.isSafeInteger(value) && value > 0 && typesOf(schema).includes('string') && !typesOf(schema).includes('integer') ? String(value) : value;
  if (Array.isArray(value)) {
    const items = schema.items as JsonSchema | undefined;
    return items === undefined ? value : value.map((v) => numbersAsSchemaText(items, v));
  }
  if (typeof value === 'object') {
    const properties = schema.properties as Record<string, JsonSchema> | undefined;
    if (properties === undefined) return value;
    return Object.fromEntries(Object.entries(value as Record<string, unknown>).map(([key, v]) => [key, numbersAsSchemaText(properties[key], v)]));
  }
  return value;
}
