// Fastify compiles every route's schemas when an app starts: an Ajv validator for each request
// part and a fast-json-stringify serializer for each response. The /v2 registry's ~200 routes
// make that most of a second of CPU per app, and a process that builds several apps (a second
// instance over the same database, the suites that start one per case) paid it each time, for
// the same schemas. These are Fastify's own compilers with one process-wide cache in front,
// keyed by what the compiled function depends on: the shared schemas and options of the
// compiler, the request part, and the schema's content (each app builds its schema objects
// afresh, so identity would never match). A compiled function is pure: sharing it between apps
// shares no state. Validators keep Ajv's `errors` on the function, which Fastify reads right
// after the synchronous call, before anything else can run. Ajv's plugins are not in the key:
// every app is made by createFastify (app.ts) with the same ones.
import { createRequire } from 'node:module';
import type { FastifyServerOptions } from 'fastify';

type CompilersFactory = NonNullable<NonNullable<FastifyServerOptions['schemaController']>['compilersFactory']>;
/** What Fastify hands a compiler for one schema of one route. */
interface RouteSchema {
  schema: unknown;
  httpPart?: string;
}
type Factory = (externalSchemas: unknown, options?: { customOptions?: unknown }) => (route: RouteSchema) => unknown;

// Fastify's defaults, resolved from Fastify itself: they are its dependencies, not ours.
const fromFastify = createRequire(createRequire(import.meta.url).resolve('fastify'));
const ajvCompiler = (fromFastify('@fastify/ajv-compiler') as { AjvCompiler: () => Factory }).AjvCompiler();
const serializerSelector = (fromFastify('@fastify/fast-json-stringify-compiler') as { SerializerSelector: () => Factory }).SerializerSelector();

const validators = new Map<string, unknown>();
const serializers = new Map<string, unknown>();

function once<T>(cache: Map<string, unknown>, key: string, compile: () => T): T {
  if (!cache.has(key)) cache.set(key, compile());
  return cache.get(key) as T;
}

const buildValidator: Factory = (externalSchemas, options) => {
  const compile = ajvCompiler(externalSchemas, options);
  const scope = JSON.stringify([externalSchemas, options?.customOptions]);
  return (route) => once(validators, `${scope}\0${route.httpPart}\0${JSON.stringify(route.schema)}`, () => compile(route));
};

const buildSerializer: Factory = (externalSchemas, options) => {
  const compile = serializerSelector(externalSchemas, options);
  const scope = JSON.stringify([externalSchemas, options]);
  return (route) => once(serializers, `${scope}\0${JSON.stringify(route.schema)}`, () => compile(route));
};

export const sharedCompilers = { buildValidator, buildSerializer } as unknown as CompilersFactory;
