// Registered redirect URIs (docs/rules.md#redirect-uris): absolute, https except loopback, no fragment,
// compared by exact string match (RFC 9700 §2.1).

export const MAX_REDIRECT_URIS = 10; // docs/rules.md#redirect-uris

export const MAX_REDIRECT_URI_LENGTH = 2000;

/** Returns a message saying what to fix, or null when the URI may be registered. */
export function redirectUriProblem(uri: string): string | null {
  // A message quotes the URI it refuses, never more than a line of it.
  const quoted = `"${uri.length > 200 ? `${uri.slice(0, 200)}…` : uri}"`;
  if (uri.length > MAX_REDIRECT_URI_LENGTH) return `redirect URI ${quoted} has ${uri.length} characters: at most ${MAX_REDIRECT_URI_LENGTH} characters are allowed`;
  let parsed: URL;
  try {
    parsed = new URL(uri);
  } catch {
    return `redirect URI ${quoted} is not an absolute URI`;
  }
  if (uri.includes('#')) return `redirect URI ${quoted} must not contain a fragment (#)`;
  // https://trusted.example.com@evil.example.net/ returns to evil.example.net.
  if (parsed.username !== '' || parsed.password !== '') return `redirect URI ${quoted} must not contain a user name or password (user:password@)`;
  if (parsed.protocol === 'https:') return null;
  if (parsed.protocol === 'http:' && isLoopbackHost(parsed.hostname)) return null;
  return `redirect URI ${quoted} must use https (http is allowed only for localhost and 127.0.0.1)`;
}

/** A loopback host, where a redirect URI may use http (RFC 8252 §7.3): the code never leaves the computer. */
export function isLoopbackHost(hostname: string): boolean {
  return hostname === 'localhost' || hostname === '127.0.0.1' || hostname === '[::1]';
}

/** Exact string comparison, as RFC 9700 §2.1 requires. */
export function isRegisteredRedirectUri(registered: readonly string[], uri: string): boolean {
  return registered.includes(uri);
}

/** Appends the authorization response parameters to a redirect URI, keeping its own query. */
export function buildRedirect(redirectUri: string, params: Record<string, string | undefined>): string {
  const url = new URL(redirectUri);
  for (const [key, value] of Object.entries(params)) {
    if (value !== undefined) url.searchParams.set(key, value);
  }
  return url.toString();
}
