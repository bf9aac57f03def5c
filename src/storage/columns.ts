// How records' values are stored in columns, for every repository: one place, so that no
// repository reaches into the protocol core for a storage format.

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
