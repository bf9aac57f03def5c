// The client form: registration and editing (docs/rules.md#client-record, docs/rules.md#client-changes). Every field is
// checked on its own, so all problems show at once, each next to its field.
import type { ClientKind } from '../../oauth/storage.ts';
import { MAX_REDIRECT_URIS, redirectUriProblem } from '../../oauth/redirect-uri.ts';
import { familyTitles, scopeRegistry, type ScopeFamily } from '../../oauth/scopes.ts';
import { ID_TOKEN_ALGORITHMS } from '../../oauth/signing-keys.ts';
import { holdsPrivateKey, MAX_JWKS_LENGTH } from '../../oauth/client-assertion.ts';
import { checkAuthMethod, checkDescription, checkHomepage, checkIdTokenAlg, checkJwks, checkLogo, checkName, checkRedirectUris, checkScopes } from '../../services/clients/input.ts';
import type { ClientView } from '../../services/clients/view.ts';
import { collect, errorSummary, fieldError, invalid, lines, listField, sentence, textField, type FieldErrors, type FormBody } from '../forms.ts';
import { awaitingBadge, breakableUrl } from '../format.ts';
import { html, type Html } from '../html.ts';
import { csrfField } from '../pages.ts';

export interface ClientFormValues {
  name: string;
  description: string;
  homepage_url: string;
  logo_url: string;
  kind: string;
  redirect_uris: string;
  scopes: string[];
  /** docs/rules.md#pushed-authorization: the checkbox; a form that lacks it leaves the flag off. */
  require_par: boolean;
  /** RFC 9449 §5.2 (docs/rules.md#dpop): the checkbox, sent as "1" when ticked. */
  dpop_bound_access_tokens: boolean;
  /** docs/rules.md#fapi2: the checkbox; a form that lacks it leaves the profile off. */
  fapi2: boolean;
  /** docs/rules.md#client-authentication: the method chosen; '' leaves the stored one (a new client: its kind's default). */
  token_endpoint_auth_method: string;
  /** docs/rules.md#client-authentication: the JWK Set of public keys, as JSON text; '' is none. */
  jwks: string;
  /** OpenID Connect Registration §2: the ID tokens' algorithm; '' is the default. */
  id_token_signed_response_alg: string;
  /** OpenID Connect RP-Initiated Logout §3.1: one per line; '' is none. */
  post_logout_redirect_uris: string;
}

export const fieldLabels: Record<string, string> = {
  name: 'Application name',
  description: 'Description',
  homepage_url: 'Homepage URL',
  logo_url: 'Logo URL',
  kind: 'Client kind',
  redirect_uris: 'Redirect URIs',
  scopes: 'Scopes',
  require_par: 'Pushed authorization requests',
  dpop_bound_access_tokens: 'DPoP',
  fapi2: 'FAPI 2.0 Security Profile',
  token_endpoint_auth_method: 'Client authentication',
  jwks: 'Public keys (JWK Set)',
  id_token_signed_response_alg: 'ID token algorithm',
  post_logout_redirect_uris: 'Post-logout redirect URIs',
  confirm: 'Confirmation',
};

export function readClientForm(body: FormBody): ClientFormValues {
  return {
    name: textField(body, 'name', 1000),
    description: textField(body, 'description', 5000),
    homepage_url: textField(body, 'homepage_url', 5000),
    logo_url: textField(body, 'logo_url', 5000),
    kind: textField(body, 'kind', 20),
    redirect_uris: textField(body, 'redirect_uris'),
    scopes: listField(body, 'scopes'),
    require_par: textField(body, 'require_par', 10) === 'on',
    dpop_bound_access_tokens: textField(body, 'dpop_bound_access_tokens', 10) === '1',
    fapi2: textField(body, 'fapi2', 10) === 'on',
    token_endpoint_auth_method: textField(body, 'token_endpoint_auth_method', 40),
    // One character past the limit, so that a longer set is refused rather than cut.
    jwks: textField(body, 'jwks', MAX_JWKS_LENGTH + 1),
    id_token_signed_response_alg: textField(body, 'id_token_signed_response_alg', 20),
    post_logout_redirect_uris: textField(body, 'post_logout_redirect_uris'),
  };
}

export function valuesOf(client: ClientView): ClientFormValues {
  return {
    name: client.name,
    description: client.description,
    homepage_url: client.homepageUrl,
    logo_url: client.logoUrl ?? '',
    kind: client.kind,
    // The developer edits what they asked for: the live list plus what awaits review.
    redirect_uris: [...client.redirectUris, ...client.proposedRedirectUris].join('\n'),
    scopes: [...(client.scopes ?? []), ...client.proposedScopes],
    require_par: client.requirePushedAuthorizationRequests,
    dpop_bound_access_tokens: client.dpopBoundAccessTokens,
    fapi2: client.fapi2,
    token_endpoint_auth_method: client.tokenEndpointAuthMethod ?? '',
    jwks: client.jwks === null ? '' : JSON.stringify(client.jwks, null, 2),
    id_token_signed_response_alg: client.idTokenSignedResponseAlg ?? '',
    post_logout_redirect_uris: client.postLogoutRedirectUris.join('\n'),
  };
}

/** The same checks the service makes, field by field, so every message lands by its field. */
export function checkClientForm(values: ClientFormValues, parts: { kind: boolean; scopes: boolean }): FieldErrors {
  const errors: FieldErrors = {};
  collect(errors, 'name', () => checkName(values.name));
  collect(errors, 'description', () => checkDescription(values.description));
  collect(errors, 'homepage_url', () => checkHomepage(values.homepage_url));
  collect(errors, 'logo_url', () => checkLogo(values.logo_url));
  if (parts.kind && values.kind !== 'confidential' && values.kind !== 'public') {
    errors.kind = 'Choose whether the client is confidential or public.';
  }
  // Every faulty URI is named at once, not only the first one.
  const problems = lines(values.redirect_uris).map(redirectUriProblem).filter((p): p is string => p !== null);
  if (problems.length > 1) errors.redirect_uris = problems.map(sentence).join(' ');
  else collect(errors, 'redirect_uris', () => checkRedirectUris(lines(values.redirect_uris)));
  if (parts.scopes) collect(errors, 'scopes', () => checkScopes(values.scopes));
  if (values.token_endpoint_auth_method !== '') collect(errors, 'token_endpoint_auth_method', () => checkAuthMethod(values.token_endpoint_auth_method));
  collect(errors, 'jwks', () => checkJwks(values.jwks));
  collect(errors, 'id_token_signed_response_alg', () => checkIdTokenAlg(values.id_token_signed_response_alg, values.fapi2));
  return errors;
}

/** Redirect URIs that carry a query string (the valid ones: an invalid one has its own error). */
function withQuery(uris: readonly string[]): string[] {
  return uris.filter((uri) => uri.includes('?') && URL.canParse(uri));
}

/**
 * A warning, not a refusal: RFC 6749 §3.1.2 allows a query in a redirect URI, and Gatehouse
 * compares it exactly. But openid-client (and libraries like it) build the redirect_uri of the
 * code exchange from the callback's address without its query, so the exchange of a client
 * registered with one fails with invalid_grant.
 */
export function queryWarning(uris: readonly string[], id: string): Html | '' {
  const found = withQuery(uris);
  if (found.length === 0) return '';
  return html`<div class="notice warn" id="${id}" role="note"><p><strong>${found.length === 1 ? 'A redirect URI has a query string' : `${found.length} redirect URIs have a query string`}:</strong> ${found.map((uri, i) => html`${i > 0 ? ', ' : ''}<code>${breakableUrl(uri)}</code>`)}</p>
<p>Gatehouse accepts it and compares it exactly, but some client libraries, openid-client among them, send the redirect URI without its query in the code exchange, which then fails with <code>invalid_grant</code>. Put what varies in the path instead (<code>/callback/acme</code> rather than <code>/callback?tenant=acme</code>), or check that your library sends the URI as registered.</p></div>`;
}

/** The methods the form offers; '' keeps what is stored (a new client: a secret, or none when public). */
const authMethodChoices: ReadonlyArray<readonly [string, string]> = [
  // Short enough for a phone's select box (390 px); the hint beside it says what each means.
  ['', 'Client secret (default)'],
  ['client_secret_basic', 'client_secret_basic'],
  ['client_secret_post', 'client_secret_post'],
  ['private_key_jwt', 'private_key_jwt (signed JWT)'],
];

export function kindOf(values: ClientFormValues): ClientKind {
  return values.kind === 'public' ? 'public' : 'confidential';
}

/** Checkboxes for every scope of the registry, grouped by family, in plain words. */
export function scopeFieldset(selected: readonly string[], errors: FieldErrors, awaiting: readonly string[] = []): Html {
  const families: ScopeFamily[] = ['identity', 'personal', 'team', 'organization'];
  return html`<fieldset id="scopes" ${invalid(errors, 'scopes')}>
<legend>Scopes <span class="muted">(at least one)</span></legend>
<p class="hint" id="scopes-hint">Choose only what the application needs. Users see these descriptions on the consent page.</p>
${fieldError(errors, 'scopes')}
${families.map((family) => {
  const scopes = scopeRegistry.filter((s) => s.family === family);
  const open = family === 'personal' || scopes.some((s) => selected.includes(s.name));
  return html`<details class="scope-family" ${open ? html`open` : ''}>
<summary>${familyTitles[family]} <span class="muted">(${family} scopes)</span></summary>
${scopes.map(
  (s) => html`<div class="check">
<input type="checkbox" id="scope-${s.name}" name="scopes" value="${s.name}" ${selected.includes(s.name) ? html`checked` : ''}>
<label for="scope-${s.name}"><code>${s.name}</code> ${s.description}${awaiting.includes(s.name) ? html` ${awaitingBadge()}` : ''}</label>
</div>`,
)}
</details>`;
})}
</fieldset>`;
}

export interface ClientFormOptions {
  action: string;
  csrf: string;
  values: ClientFormValues;
  errors: FieldErrors;
  /** The client being edited; absent when registering. */
  client?: ClientView;
  submitLabel: string;
  cancelHref: string;
}

export function clientForm({ action, csrf, values, errors, client, submitLabel, cancelHref }: ClientFormOptions): Html {
  const legacy = client?.legacy === true;
  return html`<form method="post" action="${action}" novalidate>
${errorSummary(errors, fieldLabels)}
${csrfField(csrf)}
<label for="name">Application name</label>
<p class="hint" id="name-hint">Shown to users on the consent page. Up to 100 characters.</p>
<input id="name" name="name" type="text" maxlength="100" required value="${values.name}" ${invalid(errors, 'name')}>
${fieldError(errors, 'name')}

<label for="description">Description <span class="muted">(optional)</span></label>
<textarea id="description" name="description" rows="3" maxlength="1000" ${invalid(errors, 'description')}>${values.description}</textarea>
${fieldError(errors, 'description')}

<label for="homepage_url">Homepage URL <span class="muted">(optional)</span></label>
<input id="homepage_url" name="homepage_url" type="url" placeholder="https://example.com" value="${values.homepage_url}" ${invalid(errors, 'homepage_url')}>
${fieldError(errors, 'homepage_url')}

<label for="logo_url">Logo URL <span class="muted">(optional, https)</span></label>
<input id="logo_url" name="logo_url" type="url" placeholder="https://example.com/logo.png" value="${values.logo_url}" ${invalid(errors, 'logo_url')}>
${fieldError(errors, 'logo_url')}

${client === undefined
  ? html`<fieldset id="kind" ${invalid(errors, 'kind')}>
<legend>Client kind</legend>
${fieldError(errors, 'kind')}
<div class="check"><input type="radio" id="kind-confidential" name="kind" value="confidential" ${values.kind !== 'public' ? html`checked` : ''}>
<label for="kind-confidential"><strong>Confidential</strong> — runs on a server that can keep a client secret.</label></div>
<div class="check"><input type="radio" id="kind-public" name="kind" value="public" ${values.kind === 'public' ? html`checked` : ''}>
<label for="kind-public"><strong>Public</strong> — a mobile, desktop or browser app; no secret, uses PKCE (S256).</label></div>
</fieldset>`
  : ''}

<label for="redirect_uris">Redirect URIs</label>
<p class="hint" id="redirect_uris-hint">One per line, 1 to ${MAX_REDIRECT_URIS}. Absolute, https (http only for localhost or 127.0.0.1), no #fragment. Compared exactly. Avoid a query string (<code>?…</code>): some libraries, openid-client among them, leave it out of the code exchange, which then fails.</p>
<textarea id="redirect_uris" name="redirect_uris" rows="4" required ${invalid(errors, 'redirect_uris')}>${values.redirect_uris}</textarea>
${fieldError(errors, 'redirect_uris')}
${queryWarning(lines(values.redirect_uris), 'redirect_uris-query')}
${client !== undefined && client.proposedRedirectUris.length > 0
  ? html`<p class="hint">${awaitingBadge()} ${client.proposedRedirectUris.join(', ')}</p>`
  : ''}

${legacy
  ? html`<p class="notice">This is a legacy client without scopes. Choose its scopes on the <a href="${action.replace(/\/edit$/, '/migrate')}">migration page</a>.</p>`
  : scopeFieldset(values.scopes, errors, client?.proposedScopes ?? [])}

<fieldset id="require_par">
<legend>Pushed authorization requests</legend>
<div class="check"><input type="checkbox" id="require_par-on" name="require_par" value="on" ${values.require_par ? html`checked` : ''}>
<label for="require_par-on"><strong>Require PAR</strong> — the application must push each authorization request to the PAR endpoint first (RFC 9126) and send the browser only <code>client_id</code> and <code>request_uri</code>; any other authorization link is refused.</label></div>
</fieldset>
<fieldset id="dpop">
<legend>Sender-constrained tokens <span class="muted">(optional)</span></legend>
<div class="check"><input type="checkbox" id="dpop_bound_access_tokens" name="dpop_bound_access_tokens" value="1" ${values.dpop_bound_access_tokens ? html`checked` : ''}>
<label for="dpop_bound_access_tokens"><strong>Require DPoP</strong> — every token request must carry a DPoP proof (RFC 9449), so a stolen token is useless without the application's private key. Tick it only once the application sends proofs.</label></div>
</fieldset>
<fieldset id="fapi2">
<legend>FAPI 2.0 Security Profile <span class="muted">(optional, confidential clients)</span></legend>
<div class="check"><input type="checkbox" id="fapi2-on" name="fapi2" value="on" ${values.fapi2 ? html`checked` : ''}>
<label for="fapi2-on"><strong>Follow FAPI 2.0</strong> — for high-value APIs: the application must push its authorization requests (PAR), send PKCE S256, bind its tokens with DPoP and authenticate with <code>private_key_jwt</code>, whatever the boxes above say.</label></div>
${fieldError(errors, 'fapi2')}
</fieldset>
<fieldset id="client-authentication">
<legend>Client authentication <span class="muted">(confidential clients)</span></legend>
<label for="token_endpoint_auth_method">How the application authenticates</label>
<p class="hint" id="auth-method-hint">A client secret may be sent in an HTTP Basic header (<code>client_secret_basic</code>) or in the request body (<code>client_secret_post</code>); the server takes either. <code>private_key_jwt</code>: a JWT the application signs with one of the public keys below. A public client uses none.</p>
<select id="token_endpoint_auth_method" name="token_endpoint_auth_method" ${invalid(errors, 'token_endpoint_auth_method')}>
${authMethodChoices.map(([value, label]) => html`<option value="${value}" ${values.token_endpoint_auth_method === value ? html`selected` : ''}>${label}</option>`)}
</select>
${fieldError(errors, 'token_endpoint_auth_method')}
<label for="jwks">Public keys (JWK Set)</label>
<p class="hint" id="jwks-hint">For <code>private_key_jwt</code>: the public keys the application signs its client assertions with, as a JWK Set (<code>{"keys":[…]}</code>). Public keys only: never paste a private key (<code>"d"</code>) or a shared secret (<code>"kty":"oct"</code>).</p>
<textarea id="jwks" name="jwks" rows="6" ${invalid(errors, 'jwks')}>${holdsPrivateKey(values.jwks) ? '' : values.jwks}</textarea>
${fieldError(errors, 'jwks')}
</fieldset>
<fieldset id="openid-connect">
<legend>Sign in with Gatehouse <span class="muted">(OpenID Connect, optional)</span></legend>
<label for="id_token_signed_response_alg">ID token algorithm</label>
<p class="hint" id="id-token-alg-hint">How the ID tokens of the <code>openid</code> scope are signed. The default is RS256 (PS256 for a client of the FAPI 2.0 profile, which cannot use RS256).</p>
<select id="id_token_signed_response_alg" name="id_token_signed_response_alg" ${invalid(errors, 'id_token_signed_response_alg')}>
${['', ...ID_TOKEN_ALGORITHMS].map((value) => html`<option value="${value}" ${values.id_token_signed_response_alg === value ? html`selected` : ''}>${value === '' ? 'Default' : value}</option>`)}
</select>
${fieldError(errors, 'id_token_signed_response_alg')}
<label for="post_logout_redirect_uris">Post-logout redirect URIs <span class="muted">(one per line)</span></label>
<p class="hint" id="post-logout-hint">Where Gatehouse may send the browser back after the application logs the user out, each on the origin of one of the redirect URIs above.</p>
<textarea id="post_logout_redirect_uris" name="post_logout_redirect_uris" rows="2" ${invalid(errors, 'post_logout_redirect_uris')}>${values.post_logout_redirect_uris}</textarea>
${fieldError(errors, 'post_logout_redirect_uris')}
</fieldset>

<div class="actions">
  <button type="submit">${submitLabel}</button>
  <a class="button secondary" href="${cancelHref}">Cancel</a>
</div>
</form>`;
}
