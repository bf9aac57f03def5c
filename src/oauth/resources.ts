// Resource indicators (RFC 8707, docs/rules.md#resource-indicators). The platform has a fixed set of protected
// resources; a grant covers some of them, and each access token is bound to the ones its
// token request named. A grant made without `resource` covers the default resource only,
// which is what every client had before resource indicators existed: storage keeps that
// as null, so rows written before them mean the same thing.
import { OAuthError } from './errors.ts';

export interface ProtectedResources {
  /** What a grant made without `resource` covers (docs/rules.md#resource-indicators: `{BASE_URL}/v2`). */
  default: string;
  /** Every resource the authorization server issues tokens for, default included. */
  known: readonly string[];
}

export const invalidTarget = (d: string) => new OAuthError('invalid_target', d);

/**
 * The `resource` values of a query or body (RFC 8707 §2: "may be used multiple times"):
 * a repeated form field arrives as an array, a JSON body may send one.
 */
export function readResourceParameter(raw: unknown): string[] {
  if (raw === null || typeof raw !== 'object') return [];
  const value = (raw as Record<string, unknown>).resource;
  const values = Array.isArray(value) ? value : value === undefined || value === null ? [] : [value];
  for (const v of values) {
    if (typeof v !== 'string') throw new OAuthError('invalid_request', 'resource must be a string (an absolute URI)');
  }
  return [...new Set((values as string[]).filter((v) => v !== ''))];
}

/**
 * RFC 8707 §2: each value is an absolute URI without a fragment, and must name a resource
 * this server protects, else invalid_target. Returns null when none was sent: the grant
 * then covers the default resource only.
 */
export function checkResources(known: ProtectedResources, requested: readonly string[]): string[] | null {
  if (requested.length === 0) return null;
  for (const value of requested) {
    if (!known.known.includes(value)) {
      throw invalidTarget(`resource "${value}" is not a resource of this server: use one of ${known.known.join(', ')}`);
    }
  }
  // Registry order, so equal sets are stored alike.
  return known.known.filter((r) => requested.includes(r));
}

/** The resources a stored list stands for: null is the default resource (see above). */
export function resourcesOf(known: ProtectedResources, stored: readonly string[] | null): string[] {
  return stored === null ? [known.default] : [...stored];
}

/**
 * RFC 8707 §2.2: a token request may ask for fewer of the grant's resources, never others.
 * Returns what the access token is bound to: the request's resources, or, when it named
 * none, the grant's, stored as the grant stores them. A request outside the grant is
 * returned as its invalid_target, not thrown: the grants decide inside a transaction that
 * must still commit (a code stays spent), so they return their errors.
 */
export function narrowResources(known: ProtectedResources, granted: readonly string[] | null, requested: readonly string[]): string[] | null | OAuthError {
  if (requested.length === 0) return granted === null ? null : [...granted];
  const allowed = resourcesOf(known, granted);
  const outside = requested.filter((r) => !allowed.includes(r));
  if (outside.length > 0) {
    return invalidTarget(`resource ${outside.map((r) => `"${r}"`).join(', ')} was not part of this authorization: request it when authorizing`);
  }
  return known.known.filter((r) => requested.includes(r));
}

/** Whether a token bound to `stored` may be presented to `resource` (docs/rules.md#resource-indicators). */
export function isBoundTo(known: ProtectedResources, stored: readonly string[] | null, resource: string): boolean {
  // Every bearer check asks this: no copy of the list.
  return stored === null ? resource === known.default : stored.includes(resource);
}
