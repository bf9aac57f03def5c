// What Fastify refuses before any route runs: above all bodies (wrong Content-Type, JSON it
// cannot or will not read, an empty or oversized body), in words that say what to send
// instead (docs/rules.md#bad-input). One place for every surface: http/failure.ts makes them a bad_request
// failure, which the API's envelope, the OAuth endpoints' RFC 6749 §5.2 errors, /mcp's
// JSON-RPC errors and the pages each show as the error table says.
import type { FastifyError } from 'fastify';

/**
 * secure-json-parse, behind Fastify's JSON parser, also refuses valid JSON holding a
 * __proto__ key or a constructor.prototype, and drops its own reason.
 */
const UNREADABLE_JSON = 'the request body is not valid JSON, or holds a __proto__ key or a constructor.prototype, which are refused';

const messages: Record<string, string> = {
  FST_ERR_CTP_INVALID_JSON_BODY: UNREADABLE_JSON,
  FST_ERR_CTP_EMPTY_JSON_BODY: 'the request body is empty but its Content-Type says JSON: send a JSON object, or no Content-Type',
  FST_ERR_CTP_BODY_TOO_LARGE: 'the request body is too large',
};

/**
 * The words for a request Fastify refused (a 4xx error it raised): a refused body in the
 * table's words, any other in its own; undefined for an error that is no refusal (a 5xx, a
 * bug). `mediaTypes` says what the endpoint reads.
 */
export function requestRefusal(error: Pick<FastifyError, 'code' | 'statusCode' | 'message'>, mediaTypes = 'application/json'): string | undefined {
  if (error.statusCode === undefined || error.statusCode < 400 || error.statusCode >= 500) return undefined;
  if (error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') return `the request body must be ${mediaTypes}: send it with that Content-Type`;
  return messages[error.code] ?? error.message;
}
