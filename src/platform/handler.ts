// The shape of a /v2 route handler. Handlers are keyed by the registry's handler id
// (src/platform/route-table.ts); the registrar attaches guard, schemas and envelope, so a
// handler only reads its input and returns its data.
import type { FastifyRequest } from 'fastify';
import type { AccessFacts } from './membership.ts';
import type { AccessPrincipal } from './authorization-server.ts';
import type { GuardedResource } from './guard.ts';
import type { JsonSchema } from './schemas.ts';

export interface ApiCall<B, Q, P> {
  body: B;
  query: Q;
  params: P;
  /** The token's user; '' only on a public route called without a token. */
  userId: string;
  principal: AccessPrincipal | undefined;
  /** The team or organization of the path, with the user's roles, from the guard's read. */
  facts: AccessFacts;
  request: FastifyRequest;
  /** The protected resource the call came through: /v2 for a route, /mcp for a tool (docs/rules.md#resource-indicators). */
  resource: GuardedResource;
  /**
   * Headers the route's answer carries beside its data, such as a limit's X-RateLimit-*
   * (docs/rules.md#rate-limits); a tool's result has no headers, and drops them.
   */
  setHeaders(headers: Readonly<Record<string, string>>): void;
}

export interface RouteHandler<B = any, Q = any, P = any> {
  body?: JsonSchema;
  query?: JsonSchema;
  /** Path parameters with a narrower schema than an id (enums); the rest are ids. */
  params?: Record<string, JsonSchema>;
  /** Schema of `data` in the success envelope. */
  data: JsonSchema;
  /**
   * The answer is one page of a list: handle returns a Page, and the envelope carries its
   * pagination beside data, as the platform's list answers do (PaginationMetaDto); the MCP
   * tool answers the page's items, as it answers every route's data.
   */
  paged?: true;
  /** 201 for a route that creates a resource. */
  status?: 200 | 201;
  /** The answer carries a secret shown once: `Cache-Control: no-store` (docs/rules.md#public-booking, docs/rules.md#forms-and-pages). */
  noStore?: true;
  /** The route is rate-limited: it may answer 429 rate_limited with Retry-After. */
  rateLimited?: boolean;
  handle(call: ApiCall<B, Q, P>): Promise<unknown>;
}

export type HandlerMap = Record<string, RouteHandler>;

/** Typing aid: `route<Body, Query, Params>({ ... })`. */
export function route<B = unknown, Q = unknown, P = Record<string, string>>(h: RouteHandler<B, Q, P>): RouteHandler {
  return h as RouteHandler;
}

/** The platform's PaginationMetaDto: where a page sits in the whole list. */
export interface Pagination {
  totalItems: number;
  remainingItems: number;
  returnedItems: number;
  itemsPerPage: number;
  currentPage: number;
  totalPages: number;
  hasNextPage: boolean;
  hasPreviousPage: boolean;
}

export interface Page<T = unknown> {
  items: T[];
  pagination: Pagination;
}

/**
 * A page of `totalItems` read at `offset` with `limit` per page. The platform counts pages of
 * `limit` from the first item, so an offset between page boundaries is in the page it falls in.
 */
export function page<T>(items: T[], totalItems: number, limit: number, offset: number): Page<T> {
  const totalPages = Math.ceil(totalItems / limit);
  const currentPage = Math.floor(offset / limit) + 1;
  return {
    items,
    pagination: {
      totalItems,
      remainingItems: Math.max(0, totalItems - offset - items.length),
      returnedItems: items.length,
      itemsPerPage: limit,
      currentPage,
      totalPages,
      hasNextPage: offset + items.length < totalItems,
      hasPreviousPage: offset > 0,
    },
  };
}
