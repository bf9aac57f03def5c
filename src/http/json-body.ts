// JSON bodies of the OAuth endpoints (SPEC §2 items 4 and 19). JSON.parse keeps the last of
// two equal keys, so {"client_secret":"wrong","client_secret":"right"} would read as one
// parameter; RFC 6749 §3.1 says a parameter sent twice is invalid_request, in JSON as in a
// form. The value still comes from Fastify's own parser (secure-json-parse, which refuses
// __proto__ and constructor keys); the repeated key is found by jsonc-parser's visitor, the
// scanner behind VS Code, which reports every property name as it reads it, with its escapes
// decoded ("client\u005fsecret" is client_secret). It only ever sees text the strict parser
// accepted, so its tolerance of comments never widens what the endpoints accept.
import type { FastifyInstance } from 'fastify';
import { visit } from 'jsonc-parser';
import { invalidRequest } from '../oauth/errors.ts';

/** The first key that appears twice in one object of `text`, at any depth. */
export function firstRepeatedKey(text: string): string | undefined {
  const objects: Array<Set<string>> = [];
  let repeated: string | undefined;
  visit(text, {
    onObjectBegin: () => {
      objects.push(new Set());
    },
    onObjectProperty: (name) => {
      const keys = objects[objects.length - 1];
      if (keys === undefined) return;
      if (keys.has(name)) repeated ??= name;
      else keys.add(name);
    },
    onObjectEnd: () => {
      objects.pop();
    },
  });
  return repeated;
}

/** Replaces the JSON parser of `app` (one encapsulated scope) with one that refuses repeated keys. */
export function refuseRepeatedJsonKeys(app: FastifyInstance): void {
  const parse = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    parse(request, body as string, (error, value) => {
      if (error) return done(error, undefined);
      const repeated = firstRepeatedKey(body as string);
      if (repeated !== undefined) return done(invalidRequest(`${repeated} was sent more than once`), undefined);
      done(null, value);
    });
  });
}
