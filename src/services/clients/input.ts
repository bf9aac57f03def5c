// Validation of what a developer submits for a client (docs/rules.md#client-record).
import { MAX_REDIRECT_URIS, redirectUriProblem } from '../../oauth/redirect-uri.ts';
import { isKnownScope, sortScopes, unknownScopes } from '../../oauth/scopes.ts';
import { validation } from '../errors.ts';
import { refuseControlCharacters, refuseFormattingCharacters } from '../names.ts';

/**
 * The one check of a client's name: the developer form, the CLI, dynamic registration and
 * metadata documents all come through here.
 */
export function checkName(name: string): string {
  const trimmed = name.trim();
  refuseControlCharacters(trimmed);
  refuseFormattingCharacters(trimmed);
  if (trimmed === '') throw validation('name is required', 'name');
  if (trimmed.length > 100) throw validation('name must be at most 100 characters', 'name');
  return trimmed;
}

export function checkDescription(description: string | undefined): string {
  const trimmed = (description ?? '').trim();
  if (trimmed.length > 1000) throw validation('description must be at most 1000 characters', 'description');
  return trimmed;
}

function httpUrl(value: string, field: string, httpsOnly: boolean): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw validation(`${field} must be an absolute URL such as https://example.com`, field);
  }
  if (httpsOnly ? url.protocol !== 'https:' : !/^https?:$/.test(url.protocol)) {
    throw validation(`${field} must use ${httpsOnly ? 'https' : 'http or https'}`, field);
  }
  if (value.length > 2000) throw validation(`${field} must be at most 2000 characters`, field);
  return value;
}

export function checkHomepage(value: string | undefined): string {
  const trimmed = (value ?? '').trim();
  return trimmed === '' ? '' : httpUrl(trimmed, 'homepage_url', false);
}

export function checkLogo(value: string | undefined): string | null {
  const trimmed = (value ?? '').trim();
  return trimmed === '' ? null : httpUrl(trimmed, 'logo_url', true);
}

export function checkRedirectUris(uris: readonly string[]): string[] {
  const list = uris.map((u) => u.trim()).filter((u) => u !== '');
  if (list.length === 0) throw validation('at least one redirect URI is required', 'redirect_uris');
  if (list.length > MAX_REDIRECT_URIS) {
    throw validation(`at most ${MAX_REDIRECT_URIS} redirect URIs per client (got ${list.length})`, 'redirect_uris');
  }
  const seen = new Set<string>();
  for (const uri of list) {
    const problem = redirectUriProblem(uri);
    if (problem) throw validation(problem, 'redirect_uris');
    if (seen.has(uri)) throw validation(`redirect URI "${uri}" is listed twice`, 'redirect_uris');
    seen.add(uri);
  }
  return list;
}

export function checkScopes(scopes: readonly string[]): string[] {
  const list = scopes.flatMap((s) => s.split(/[\s,]+/)).filter((s) => s !== '');
  if (list.length === 0) throw validation('choose at least one scope', 'scopes');
  const unknown = list.filter((s) => !isKnownScope(s));
  if (unknown.length > 0) throw validation(unknownScopes(unknown), 'scopes');
  return sortScopes(list);
}

/** docs/rules.md#fapi2: the FAPI 2.0 Security Profile supports confidential clients only (§5.3.2.1). */
export function fapi2NeedsConfidential() {
  return validation('the FAPI 2.0 Security Profile is for confidential clients: a public client cannot follow it', 'fapi2');
}
