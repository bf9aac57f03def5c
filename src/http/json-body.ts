// JSON bodies of the OAuth endpoints (RFC 6749 §3.1) and of /mcp (SECURITY.md): one
// parser, so that the two cannot read a body differently. JSON.parse keeps the last of two
// equal keys, so {"client_secret":"wrong","client_secret":"right"} would read as one
// parameter; RFC 6749 §3.1 says a parameter sent twice is invalid_request, in JSON as in a
// form (and at /mcp, a second "name" in a tools/call would run another tool than the one a
// client or a proxy checked). The value still comes from Fastify's own parser (secure-json-parse, which refuses
// __proto__ and constructor keys); the repeated key is found with jsonc-parser's scanner,
// the JSON tokenizer behind VS Code, which decodes each string's escapes
// ("client\u005fsecret" is client_secret). The scanner reads token by token, without
// recursion, so no nesting depth can overflow the stack, and it only ever sees text the
// strict parser accepted, so its tolerance of comments never widens what is accepted.
import type { FastifyInstance } from 'fastify';
import { createScanner } from 'jsonc-parser';

/**
 * A body naming a key twice: a 400 refusal before any route runs, which each surface words in
 * its own format (http/errors.ts: an OAuth invalid_request, a JSON-RPC error at /mcp).
 */
export class RepeatedJsonKeyError extends Error {
  readonly statusCode = 400;
  readonly code = 'GH_REPEATED_JSON_KEY';

  constructor(readonly key: string) {
    super(`${key === '' ? 'an empty key' : key} was sent more than once`);
  }
}

// jsonc-parser's SyntaxKind values; it is a const enum, which isolated modules cannot read.
const OPEN_BRACE = 1;
const CLOSE_BRACE = 2;
const OPEN_BRACKET = 3;
const CLOSE_BRACKET = 4;
const COMMA = 5;
const STRING = 10;
const EOF = 17;

/** The first key that appears twice in one object of `text` (valid JSON), at any depth. */
export function firstRepeatedKey(text: string): string | undefined {
  const scanner = createScanner(text, true);
  // One entry per open object (the keys it has so far) or array (null).
  const open: Array<Set<string> | null> = [];
  let keyNext = false;
  for (let token = scanner.scan(); token !== EOF; token = scanner.scan()) {
    switch (token) {
      case OPEN_BRACE:
        open.push(new Set());
        keyNext = true;
        break;
      case OPEN_BRACKET:
        open.push(null);
        keyNext = false;
        break;
      case CLOSE_BRACE:
      case CLOSE_BRACKET:
        open.pop();
        keyNext = false;
        break;
      case COMMA:
        keyNext = open.at(-1) instanceof Set;
        break;
      case STRING: {
        const keys = open.at(-1);
        if (!keyNext || !(keys instanceof Set)) break;
        const name = scanner.getTokenValue();
        if (keys.has(name)) return name;
        keys.add(name);
        keyNext = false;
        break;
      }
      default: // colons and other values
    }
  }
  return undefined;
}

/** Replaces the JSON parser of `app` (one encapsulated scope) with one that refuses repeated keys. */
export function refuseRepeatedJsonKeys(app: FastifyInstance): void {
  const parse = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    parse(request, body as string, (error, value) => {
      if (error) return done(error, undefined);
      const repeated = firstRepeatedKey(body as string);
      if (repeated !== undefined) return done(new RepeatedJsonKeyError(repeated), undefined);
      done(null, value);
    });
  });
}
