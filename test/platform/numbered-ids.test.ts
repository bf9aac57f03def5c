// numberedAsSchema (src/platform/numbered-ids.ts, docs/rules.md#numbered-ids): whether a schema
// can turn text into a number is decided once per schema; an answer whose schema declares no
// integer is returned as it is, not copied, and every answer is what the walk of every node
// made of it before.
import { describe, expect, it } from 'vitest';
import { numberedAsSchema } from '../../src/platform/numbered-ids.ts';
import { eventTypeView } from '../../src/platform/event-types/view.ts';
import { arrayOf, bool, deletedNumbered, nullable, numberedId, object, type JsonSchema } from '../../src/platform/schemas.ts';

const DECIMAL = /^[1-9][0-9]{0,15}$/;
const typesOf = (schema: JsonSchema): string[] => [schema.type ?? []].flat() as string[];

/** The conversion as it was, walking and copying every node: the answers must stay its answers. */
function walkedAsBefore(schema: JsonSchema | undefined, value: unknown): unknown {
  if (schema === undefined || value === null || value === undefined) return value;
  if (typeof value === 'string') return typesOf(schema).includes('integer') && DECIMAL.test(value) && Number.isSafeInteger(Number(value)) ? Number(value) : value;
  if (Array.isArray(value)) {
    const items = schema.items as JsonSchema | undefined;
    return items === undefined ? value : value.map((v) => walkedAsBefore(items, v));
  }
  if (typeof value === 'object') {
    const properties = schema.properties as Record<string, JsonSchema> | undefined;
    const rest = typeof schema.additionalProperties === 'object' ? (schema.additionalProperties as JsonSchema) : undefined;
    if (properties === undefined && rest === undefined) return value;
    const out: Record<string, unknown> = {};
    for (const [key, v] of Object.entries(value as Record<string, unknown>)) out[key] = walkedAsBefore(properties?.[key] ?? rest, v);
    return out;
  }
  return value;
}

const text: JsonSchema = { type: 'string' };

describe('numberedAsSchema', () => {
  it('returns an answer whose schema declares no integer as it is: the same object, not a copy', () => {
    const schema = object({ name: text, tags: arrayOf(text, 0, 10), nested: object({ flag: bool, note: nullable(text) }), free: { type: 'object', additionalProperties: text } });
    const answer = { name: '12', tags: ['1', '2'], nested: { flag: true, note: '3' }, free: { a: '4' } };
    expect(numberedAsSchema(schema, answer)).toBe(answer);
    const list = [answer, answer];
    expect(numberedAsSchema(arrayOf(schema, 0, 10), list)).toBe(list);
    // Asked again, the same: the decision is kept with the schema.
    expect(numberedAsSchema(schema, answer)).toBe(answer);
  });

  it('numbers the ids an integer is declared for, leaves the rest as it was and the parts without one uncopied', () => {
    const plain = object({ title: text, labels: arrayOf(text, 0, 5) });
    const schema = object({ id: numberedId, ownerId: nullable(numberedId), plain, people: arrayOf(object({ userId: numberedId, name: text }), 0, 10), extra: { type: 'object', additionalProperties: numberedId } });
    const part = { title: '7', labels: ['8'] };
    const answer = { id: '5', ownerId: null, plain: part, people: [{ userId: '6', name: '9' }, { userId: 'not-a-number', name: 'x' }], extra: { a: '10', b: '007' }, unknown: '11' };
    const converted = numberedAsSchema(schema, answer) as typeof answer;
    expect(converted).toEqual({ id: 5, ownerId: null, plain: part, people: [{ userId: 6, name: '9' }, { userId: 'not-a-number', name: 'x' }], extra: { a: 10, b: '007' }, unknown: '11' });
    expect(converted).toEqual(walkedAsBefore(schema, answer));
    expect(Object.keys(converted)).toEqual(Object.keys(answer));
    expect(converted.plain).toBe(part);
    // The handler's answer is left as it was.
    expect(answer.id).toBe('5');
  });

  it('answers as the walk of every node did for the /v2 schemas, paged or not', () => {
    const eventType = {
      id: '12', title: 'Intro', slug: 'intro', lengthInMinutes: 30, lengthInMinutesOptions: [30], locations: [{ type: 'link', link: 'https://x', value: 'https://x' }],
      ownerId: null, teamId: '3', hosts: [{ userId: '4', name: 'Ann', username: 'ann', avatarUrl: null }], team: { id: '3', slug: 's', name: 'S', bannerUrl: null },
      metadata: { any: '1' }, createdAt: '2026-01-01T00:00:00.000Z',
    };
    for (const [schema, value] of [
      [eventTypeView, eventType],
      [arrayOf(eventTypeView, 0, 100), [eventType, { ...eventType, id: '13', teamId: null, ownerId: '9', users: [{ id: '9', name: 'B', username: 'b', avatarUrl: null }] }]],
      [deletedNumbered, { id: '99', deleted: true }],
    ] as [JsonSchema, unknown][]) {
      expect(numberedAsSchema(schema, value)).toEqual(walkedAsBefore(schema, value));
    }
  });

  it('a schema that holds itself is decided without walking forever', () => {
    const node: JsonSchema = { type: 'object', properties: { name: text } };
    (node.properties as Record<string, JsonSchema>).children = { type: 'array', items: node };
    const answer = { name: 'a', children: [{ name: 'b', children: [] }] };
    expect(numberedAsSchema(node, answer)).toBe(answer);
    const numberedNode: JsonSchema = { type: 'object', properties: { name: text } };
    (numberedNode.properties as Record<string, JsonSchema>).children = { type: 'array', items: numberedNode };
    (numberedNode.properties as Record<string, JsonSchema>).id = numberedId;
    const tree = { id: '1', name: 'a', children: [{ id: '2', name: 'b', children: [] }] };
    expect(numberedAsSchema(numberedNode, tree)).toEqual({ id: 1, name: 'a', children: [{ id: 2, name: 'b', children: [] }] });
  });
});
