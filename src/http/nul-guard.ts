// No request text may hold U+0000. PostgreSQL cannot take it in a text or JSON value (it
// fails the statement with 22021 or 22P05, which reached callers as a 500), SQLite would
// store it and hand it on to every reader, and no name, URL, id or secret of this service
// has a use for it. So it is refused before any route's own hooks run (app.ts registers it
// first in every area), wherever it is: in the path, the query string, or any key or value
// of a form or JSON body, at any depth.
import type { FastifyInstance } from 'fastify';

class NulCharacterError extends Error {
  readonly statusCode = 400;
  readonly code = 'GH_NUL_CHARACTER';
}

/** Where in `value` a string (a key or a value) holds U+0000: a dotted path, '' at the top, undefined when none does. */
export function nulCharacterAt(value: unknown): string | undefined {
  if (typeof value === 'string') return value.includes('\u0000') ? '' : undefined;
  if (value === null || typeof value !== 'object') return undefined;
  // Iterative: a body nested thousands deep must not overflow the stack here.
  const pending: Array<[object, string]> = [[value, '']];
  while (pending.length > 0) {
    const [item, path] = pending.pop()!;
    for (const key in item) {
      if (!Object.hasOwn(item, key)) continue;
      const at = path === '' ? key : `${path}.${key}`;
      if (key.includes('\u0000')) return at;
      const child = (item as Record<string, unknown>)[key];
      if (typeof child === 'string') {
        if (child.includes('\u0000')) return at;
      } else if (child !== null && typeof child === 'object') {
        pending.push([child, at]);
      }
    }
  }
  return undefined;
}

function refuse(where: string, value: unknown): void {
  const at = nulCharacterAt(value);
  if (at !== undefined) {
    const field = at === '' ? '' : ` (${at.replace(/\u0000/g, '\\u0000').slice(0, 100)})`;
    throw new NulCharacterError(`${where} holds a NUL character (U+0000)${field}; remove it and send the request again`);
  }
}

/** Adds the refusal to `app`'s scope: the routes registered in it, and in its children. */
export function refuseNulCharacters(app: FastifyInstance): void {
  // The address at once, before any hook reads it (the API's access check looks up the
  // path's team); the body once it is parsed, before validation. Callback hooks: every
  // request passes both, and an async hook costs a promise each.
  app.addHook('onRequest', (request, _reply, done) => {
    // The parsed path parameters and query can hold U+0000 only if the address spelled it
    // %00 (Node refuses a raw NUL in the request line): most requests skip the walk.
    if (!/%00/.test(request.raw.url ?? '')) {
      done();
      return;
    }
    try {
      refuse('the address', request.params);
      refuse('the query string', request.query);
      done();
    } catch (error) {
      done(error as Error);
    }
  });
  app.addHook('preValidation', (request, _reply, done) => {
    try {
      refuse('the request body', request.body);
      done();
    } catch (error) {
      done(error as Error);
    }
  });
}
