// Whole numbers in the query string or a JSON body (schemas.ts int()). Fastify's Ajv coerces a
// string to a number before checking it, and "1e999", "Infinity" or "-1e999" become ±Infinity,
// which Ajv's number keywords (minimum, maximum) never look at: they run only on finite numbers.
// So a list's `limit` reached SQLite as Infinity (a 500), and an event type's length was stored
// as one (every later listing of it a 500). The keyword `x-finite` (an OpenAPI extension, so
// the published schemas stay valid) refuses what is not finite once coerced, in the words of
// the range. It is not a `type: 'number'` keyword, for the same reason Ajv's own miss it.

import type { FastifyServerOptions } from 'fastify';

export const FINITE = 'x-finite';

/** An Ajv plugin as Fastify's `ajv.plugins` takes it. */
type AjvPlugin = Extract<NonNullable<NonNullable<FastifyServerOptions['ajv']>['plugins']>[number], (...args: never[]) => unknown>;

interface Check {
  (on: boolean, data: unknown, parent?: Record<string, unknown>): boolean;
  errors?: Array<{ keyword: string; message: string; params: Record<string, never> }>;
}

const finite: Check = (on, data, parent) => {
  if (!on || typeof data !== 'number' || Number.isFinite(data)) return true;
  finite.errors = [{ keyword: FINITE, message: `must be a whole number from ${String(parent?.minimum ?? 'any')} to ${String(parent?.maximum ?? 'any')}`, params: {} }];
  return false;
};

/** The plugin for Fastify's validator. */
export const finiteNumbers: AjvPlugin = (ajv) => ajv.addKeyword({ keyword: FINITE, schemaType: 'boolean', errors: true, validate: finite });
