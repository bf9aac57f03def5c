// No request text may hold U+0000. PostgreSQL cannot take it in a text or JSON value (it
// fails the statement with 22021 or 22P05, which reached callers as a 500), SQLite would
// store it and hand it on to every reader, and no name, URL, id or secret of this service
// has a use for it. So it is refused once, before any route runs, wherever it is: in the
// path, the query string, or any key or value of a form or JSON body, at any depth.
import type { FastifyInstance } from 'fastify';

class NulCharacterError extends Error {
  readonly statusCode = 400;
  readonly code = 'GH_NUL_CHARACTER';
}

/** Where in `value` a string (a key or a value) holds U+0000: a dotted path, '' at the top, undefined when none does. */
export function nulCharacterAt(value: unknown): string | undefined {
  // Iterative: a body nested thousands deep must not overflow the stack here.
  const pending: Array<[unknown, string]> = [[value, '']];
  while (pending.length > 0) {
    const [item, path] = pending.pop()!;
    if (typeof item === 'string') {
      if (item.includes('\u0000')) return path;
    } else if (item !== null && typeof item === 'object') {
      for (const [key, child] of Object.entries(item)) {
        const at = path === '' ? key : `${path}.${key}`;
        if (key.includes('\u0000')) return at;
        pending.push([child, at]);
      }
    }
  }
  return undefined;
}

function refuse(parts: Array<[string, unknown]>): void {
  for (const [where, value] of parts) {
    const at = nulCharacterAt(value);
    if (at !== undefined) {
      const field = at === '' ? '' : ` (${at.replace(/\u0000/g, '\\u0000').slice(0, 100)})`;
      throw new NulCharacterError(`${where} holds a NUL character (U+0000)${field}; remove it and send the request again`);
    }
  }
}

export function refuseNulCharacters(app: FastifyInstance): void {
  // The address at once, before any hook reads it (the API's access check looks up the
  // path's team); the body once it is parsed, before validation.
  app.addHook('onRequest', async (request) => refuse([['the address', request.params], ['the query string', request.query]]));
  app.addHook('preValidation', async (request) => refuse([['the request body', request.body]]));
}
