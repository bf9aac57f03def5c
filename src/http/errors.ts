// The one error model (ARCHITECTURE.md, Errors): every failure a caller can see has a kind,
// and this table says what each surface shows for that kind. The surfaces render from it
// (http/oauth/errors.ts, platform/envelope.ts, platform/mcp/server.ts, web/error-page.ts),
// and `failureOf` (http/failure.ts) finds the kind of whatever was thrown. It is data in
// src/http because every surface depends on http and http on none of them; the core and the
// services throw their own errors (OAuthError, ServiceError) and know nothing of it.
import type { OAuthErrorCode } from '../oauth/errors.ts';
import type { ServiceErrorKind } from '../services/errors.ts';
import { StoreUnavailable } from '../services/store-unavailable.ts';

export type ErrorKind =
  /** The services' refusals (validation, not_found, conflict, forbidden), which the platform's handlers raise too. */
  | ServiceErrorKind
  /** A request that cannot be read: its body, its Content-Type, a NUL character, a repeated JSON key. */
  | 'bad_request'
  /** An address that is not valid percent-encoding, or has a part too long to be a name. */
  | 'bad_address'
  /** No route at this address. */
  | 'unknown_path'
  /** The bearer check (RFC 6750 §3.1): no token, a bad one, or one without the scope. */
  | 'unauthorized'
  | 'invalid_token'
  | 'insufficient_scope'
  /** A page's form failed its CSRF check. */
  | 'form_expired'
  | 'rate_limited'
  /** The database cannot take the request now (services/store-unavailable.ts): try again later. */
  | 'unavailable'
  /** Anything else is a fault of ours: its cause goes to the log, never to the caller. */
  | 'internal';

/** The codes of the platform API's envelope (platform/envelope.ts; docs/integrating.md#scopes-and-endpoints). */
export type ApiErrorCode =
  | 'unauthorized'
  | 'invalid_token'
  | 'insufficient_scope'
  | 'forbidden'
  | 'not_found'
  | 'conflict'
  | 'validation_error'
  | 'bad_request'
  | 'rate_limited'
  | 'service_unavailable'
  | 'internal_error';

/** JSON-RPC 2.0 §5.1: -32000 and up are the server's own errors; -32603 is an internal error. */
const SERVER_ERROR = -32000;
const INTERNAL_ERROR = -32603;

export interface SurfaceAnswers {
  /** The HTTP status of the API envelope, the page and a refused MCP request. */
  status: number;
  /** RFC 6749 §5.2 (RFC 7591 §3.2.2 for registration): the code and its status, 400 unless the RFC says otherwise. */
  oauth: { error: OAuthErrorCode; status: number };
  api: ApiErrorCode;
  /**
   * Inside a tools/call, whether it is the tool's own failure (a result with isError, which
   * the agent reads and acts on) or a JSON-RPC error; `code` is that error's, and the one of
   * a POST refused as a whole.
   */
  mcp: { toolResult: boolean; code: number };
  /** The page's title, and its message when the failure's own words are not for a person. */
  page: { title: string; message?: string };
  /** What the JSON surfaces say when the failure has no words of its own (an outage, a fault). */
  message?: string;
}

const invalidRequest = { error: 'invalid_request', status: 400 } as const;
const toolResult = { toolResult: true, code: SERVER_ERROR };

export const errorTable: Readonly<Record<ErrorKind, SurfaceAnswers>> = {
  validation: { status: 400, oauth: invalidRequest, api: 'validation_error', mcp: toolResult, page: { title: 'That did not work' } },
  not_found: { status: 404, oauth: invalidRequest, api: 'not_found', mcp: toolResult, page: { title: 'Not found' } },
  conflict: { status: 409, oauth: invalidRequest, api: 'conflict', mcp: toolResult, page: { title: 'That cannot be done now' } },
  forbidden: { status: 403, oauth: invalidRequest, api: 'forbidden', mcp: toolResult, page: { title: 'Not allowed' } },
  bad_request: {
    status: 400,
    oauth: invalidRequest,
    api: 'bad_request',
    mcp: toolResult,
    page: { title: 'Request not understood', message: 'The page could not read what your browser sent. Go back, reload the page and try again.' },
  },
  bad_address: { status: 400, oauth: invalidRequest, api: 'bad_request', mcp: toolResult, page: { title: 'This address is not valid' } },
  unknown_path: {
    status: 404,
    oauth: invalidRequest,
    api: 'not_found',
    mcp: toolResult,
    page: { title: 'Page not found', message: 'There is no page at this address. Check the address, or go back to the start page.' },
  },
  unauthorized: { status: 401, oauth: invalidRequest, api: 'unauthorized', mcp: toolResult, page: { title: 'Not allowed' } },
  invalid_token: { status: 401, oauth: invalidRequest, api: 'invalid_token', mcp: toolResult, page: { title: 'Not allowed' } },
  insufficient_scope: { status: 403, oauth: invalidRequest, api: 'insufficient_scope', mcp: toolResult, page: { title: 'Not allowed' } },
  form_expired: {
    status: 403,
    oauth: invalidRequest,
    api: 'forbidden',
    mcp: toolResult,
    page: { title: 'This form has expired', message: 'The form was open too long or in another session. Go back, reload the page and submit it again.' },
    message: 'the form has expired: reload the page and submit it again',
  },
  // RFC 6585 §4 for the status; RFC 6749 §4.1.2.1's "try later" code for OAuth (oauth/errors.ts, rateLimited).
  rate_limited: { status: 429, oauth: { error: 'temporarily_unavailable', status: 429 }, api: 'rate_limited', mcp: toolResult, page: { title: 'Too many attempts' } },
  // RFC 6749 §4.1.2.1 "temporarily unable to handle the request"; Retry-After says when (docs/operating.md#when-things-fail).
  unavailable: {
    status: 503,
    oauth: { error: 'temporarily_unavailable', status: 503 },
    api: 'service_unavailable',
    mcp: { toolResult: false, code: SERVER_ERROR },
    page: { title: 'Temporarily unavailable', message: 'Gatehouse cannot reach its database right now. Try again in a few seconds.' },
    message: `the service is temporarily unavailable; try again in ${StoreUnavailable.retryAfterSeconds} seconds`,
  },
  internal: {
    status: 500,
    oauth: { error: 'server_error', status: 500 },
    api: 'internal_error',
    mcp: { toolResult: false, code: INTERNAL_ERROR },
    page: { title: 'Something went wrong', message: 'The page could not be shown. Try again in a moment.' },
    message: 'the server could not complete the request; try again',
  },
};

/**
 * A refusal raised by a surface with a kind of the table and words for the caller: the
 * platform's handlers and its guard throw it, and every surface renders it (the API as its
 * envelope, MCP as the tool's failure). `headers` go with the answer: WWW-Authenticate on a
 * 401 or 403 (RFC 6750 §3), Retry-After on a 429.
 */
export class Refusal extends Error {
  constructor(
    readonly kind: Exclude<ErrorKind, 'internal' | 'unavailable'>,
    message: string,
    readonly headers: Readonly<Record<string, string>> = {},
  ) {
    super(message);
    this.name = 'Refusal';
  }
}

/**
 * The body of an API failure (docs/rules.md#api-envelope), in the shape of Cal.com API v2's
 * errors: when and where it failed and why. The path goes without its query string, which is
 * the caller's and may hold what should not echo back.
 */
export function apiErrorBody(url: string, code: ApiErrorCode, message: string) {
  return { status: 'error' as const, timestamp: new Date().toISOString(), path: url.split('?', 1)[0]!, error: { code, message } };
}
