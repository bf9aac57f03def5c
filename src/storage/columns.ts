// How records' values are stored in columns, for every repository: one place, so that no
// repository reaches into the protocol core for a storage format.
import type { JSONWebKeySet } from 'jose';
import { TOKEN_ENDPOINT_AUTH_METHODS, type TokenEndpointAuthMethod } from '../oauth/storage.ts';

/**
 * A scope list column: the names joined by single spaces, in the order given (the protocol
 * core writes registry order); '' is an empty list and NULL a legacy grant (docs/rules.md#legacy-clients).
 */
export function scopesColumn(scopes: readonly string[] | null): string | null {
  return scopes === null ? null : scopes.join(' ');
}

/** The inverse of scopesColumn. */
export function scopesFromColumn(stored: string | null): string[] | null {
  if (stored === null) return null;
  return stored === '' ? [] : stored.split(' ');
}

/**
 * A resource list column (RFC 8707): the URIs joined by single spaces (a URI holds no
 * space); NULL is the default resource, as rows written before resource indicators.
 */
export function resourcesColumn(resources: readonly string[] | null | undefined): string | null {
  return resources == null ? null : resources.join(' ');
}

/** The inverse of resourcesColumn. */
export function resourcesFromColumn(stored: string | null): string[] | null {
  if (stored === null) return null;
  return stored === '' ? [] : stored.split(' ');
}

/** token_endpoint_auth_method (migration 018): a method Gatehouse knows, or null (the kind's default). */
export function authMethodFromColumn(stored: string | null): TokenEndpointAuthMethod | null {
  return stored !== null && (TOKEN_ENDPOINT_AUTH_METHODS as readonly string[]).includes(stored) ? (stored as TokenEndpointAuthMethod) : null;
}

/** jwks (migration 018): the JWK Set as written, or null when the client registered no keys. */
export function jwksFromColumn(stored: string | null): JSONWebKeySet | null {
  return stored === null ? null : (JSON.parse(stored) as JSONWebKeySet);
}
