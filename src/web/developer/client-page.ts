// A developer's client page: what the application needs to be configured (docs/rules.md#client-record), its
// state and review note, secrets (docs/rules.md#client-secrets, docs/rules.md#secret-rotation), held changes (docs/rules.md#client-changes), the legacy
// explanation (docs/rules.md#legacy-clients) and the client's events (docs/rules.md#audit-events).
import type { ClientView } from '../../services/clients/view.ts';
import type { ClientEvent } from '../../services/clients/events.ts';
import type { ClientEventsView } from '../../services/webhooks/client-events.ts';
import { MAX_ACTIVE_SECRETS } from '../../services/clients/secrets.ts';
import { eventTable } from '../events.ts';
import { awaitingBadge, breakableUrl, fullStop, scopeList, stateBadge, time } from '../format.ts';
import { html, type Html } from '../html.ts';
import { csrfField } from '../pages.ts';
import { logoImage } from '../logos.ts';
import { clientPath } from './paths.ts';
import { queryWarning } from './client-form.ts';

export interface ClientPageData {
  client: ClientView;
  events: ClientEvent[];
  viewer: { id: string; admin: boolean };
  urls: { issuer: string; metadata: string; authorize: string; token: string; par: string };
  csrf: string;
  /** Legacy clients: authorization requests without scope in the last 30 days. */
  scopeless: number | null;
  notice?: string | undefined;
  /** A refusal about secrets, shown in the secrets section. */
  secretError?: string | undefined;
  /** A secret just created: shown this once. */
  newSecret?: { secret: string; lastFour: string } | undefined;
  /** docs/rules.md#client-events: the events URL, whether it has a signing secret, and its recent deliveries. */
  applicationEvents: ClientEventsView;
  /** A refusal of the events URL, shown beside its form. */
  eventsUrlError?: string | undefined;
  /** An events signing secret just created: shown this once. */
  newEventsSecret?: string | undefined;
}

function stateExplanation(c: ClientView): Html {
  switch (c.state) {
    case 'pending':
      return html`<p class="notice" id="state-note">Waiting for review by a platform admin. Until it is approved the client cannot start an authorization or use the token endpoint.</p>`;
    case 'rejected':
      return html`<p class="notice bad" id="state-note">Rejected by a platform admin: <strong id="review-note">${c.reviewNote ?? 'no reason given'}</strong>${fullStop(c.reviewNote)} Fix what the reviewer asks and save the client: saving resubmits it for review.</p>`;
    case 'suspended':
      return html`<p class="notice bad" id="state-note">Suspended by a platform admin${c.reviewNote ? html`: <strong id="review-note">${c.reviewNote}</strong>` : ''}${fullStop(c.reviewNote)} Its tokens do not work until an admin approves it again.</p>`;
    case 'approved':
      return c.reviewNote
        ? html`<p class="notice" id="state-note">Note from the reviewer: <strong id="review-note">${c.reviewNote}</strong></p>`
        : html``;
  }
}

function heldChanges(c: ClientView): Html | '' {
  if (c.proposedRedirectUris.length === 0 && c.proposedScopes.length === 0) return '';
  return html`<section class="card held" id="held-changes" aria-labelledby="held-title">
<h2 id="held-title">${awaitingBadge()} Changes awaiting review</h2>
<p>These additions wait for a platform admin. Until they are approved, the approved configuration below stays live: authorization requests that use them are refused.</p>
${c.proposedRedirectUris.length > 0 ? html`<h3>Redirect URIs</h3><ul>${c.proposedRedirectUris.map((u) => html`<li><code>${breakableUrl(u)}</code></li>`)}</ul>` : ''}
${c.proposedScopes.length > 0 ? html`<h3>Scopes</h3>${scopeList(c.proposedScopes)}` : ''}
</section>`;
}

function legacySection(c: ClientView, scopeless: number): Html {
  return html`<section class="card" id="legacy" aria-labelledby="legacy-title">
<h2 id="legacy-title">Legacy client</h2>
<p>This client was registered before scopes existed. Its tokens are not limited by scope: they reach <strong>everything in the account</strong> of each user who authorized it, and it ignores the <code>scope</code> parameter.</p>
<p>Migrating gives it scopes in place: the same client ID and secrets. From then on every authorization request must carry <code>scope</code>. Tokens issued before keep working until the same user authorizes the application again.</p>
<p id="scopeless-count"><strong>${scopeless}</strong> of its authorization requests in the last 30 days had no <code>scope</code> parameter.${scopeless > 0 ? ' Update the authorization URL to carry scope before migrating.' : ''}</p>
<p><a class="button" href="${clientPath(c.clientId)}/migrate">Choose scopes and migrate</a></p>
</section>`;
}

/**
 * The fields that make a form that adds or rotates a secret good once (docs/rules.md#forms-and-pages):
 * the ids of the active secrets the page showed, and which signing secret it showed
 * (signingSecretVersion). The routes act only while they are still the client's.
 */
export const SHOWN_SECRETS = 'shown_secrets';
export const SHOWN_SIGNING_SECRET = 'shown_signing_secret';

/** What the secrets section needs; shared by the developer and the admin client pages. */
export interface SecretsSectionData {
  client: ClientView;
  csrf: string;
  /** The client page's address; the secret forms post below it. */
  base: string;
  secretError?: string | undefined;
  newSecret?: { secret: string; lastFour: string } | undefined;
}

export function secretsSection(d: SecretsSectionData): Html {
  const c = d.client;
  const base = d.base;
  if (c.kind === 'public') {
    return html`<section class="card" id="secrets" aria-labelledby="secrets-title"><h2 id="secrets-title">Secrets</h2>
<p>A public client has no secret: it proves itself with PKCE (<code>code_challenge</code>, S256) on every authorization.</p></section>`;
  }
  const full = c.secrets.length >= MAX_ACTIVE_SECRETS;
  const last = c.secrets.length <= 1;
  return html`<section class="card" id="secrets" aria-labelledby="secrets-title">
<h2 id="secrets-title">Secrets</h2>
${d.secretError ? html`<p class="error" role="alert" id="secret-error">${d.secretError}</p>` : ''}
${d.newSecret
  ? html`<div class="secret-box" id="new-secret" role="status">
<p><strong>Your new secret. Copy it now: it will not be shown again.</strong></p>
<label for="new-secret-value">Client secret ending in ${d.newSecret.lastFour}</label>
<div class="copy-row"><input id="new-secret-value" type="text" readonly value="${d.newSecret.secret}" autocomplete="off" spellcheck="false">
<button type="button" class="secondary" data-copy="new-secret-value" hidden>Copy</button></div>
</div>`
  : ''}
<p>To rotate: add a second secret, switch the application to it and check that code exchange and refresh work, then remove the old one. Tokens already issued keep working.</p>
<div class="table-wrap"><table class="secrets stack">
<thead><tr><th scope="col">Secret</th><th scope="col">Created</th><th scope="col">Last used</th><th scope="col"><span class="visually-hidden">Actions</span></th></tr></thead>
<tbody>${c.secrets.map(
    (s) => html`<tr data-secret="${s.id}"><td data-label="Secret"><code>…${s.lastFour}</code></td><td data-label="Created">${time(s.createdAt)}</td><td data-label="Last used">${time(s.lastUsedAt)}</td>
<td class="row-actions">${last ? html`<span class="muted">—</span>` : html`<a href="${base}/secrets/${s.id}/remove">Remove<span class="visually-hidden"> secret ending in ${s.lastFour}</span></a>`}</td></tr>`,
  )}</tbody></table></div>
${last ? html`<p class="muted" id="last-secret-note">This is the only secret, so it cannot be removed: a confidential client always keeps one. Add a new secret first, then remove this one.</p>` : ''}
${full
  ? html`<p class="muted" id="secret-limit-note">A client can hold at most ${MAX_ACTIVE_SECRETS} active secrets. Remove the one your application no longer uses (see “Last used”) before adding another.</p>`
  : html`<form method="post" action="${base}/secrets">${csrfField(d.csrf)}<input type="hidden" name="${SHOWN_SECRETS}" value="${c.secrets.map((s) => s.id).join(' ')}"><button type="submit">Add a secret</button></form>`}
</section>`;
}

const deliveryState = (d: ClientEventsView['deliveries'][number]) =>
  d.status === 'delivered' ? 'delivered' : d.status === 'failed' ? 'failed' : d.attempts === 0 ? 'waiting' : 'retrying';

/** docs/rules.md#client-events: where the application hears of revocations and review decisions, and what it was sent. */
function applicationEventsSection(d: ClientPageData): Html {
  const e = d.applicationEvents;
  const base = clientPath(d.client.clientId);
  return html`<section class="card" id="events-url" aria-labelledby="events-url-title">
<h2 id="events-url-title">Events URL</h2>
<p>Gatehouse sends signed <code>POST</code> requests here when a user revokes your application (<code>authorization.revoked</code>), when reuse of a refresh token revoked a grant (<code>grant.revoked_reuse</code>), and when the client is suspended or approved (<code>client.suspended</code>, <code>client.approved</code>). Verify them with the signing secret as the Standard Webhooks specification says.</p>
${d.eventsUrlError ? html`<p class="error" role="alert" id="events-url-error">${d.eventsUrlError}</p>` : ''}
${d.newEventsSecret
  ? html`<div class="secret-box" id="new-events-secret" role="status">
<p><strong>Your signing secret. Copy it now: it will not be shown again.</strong></p>
<label for="new-events-secret-value">Events signing secret</label>
<div class="copy-row"><input id="new-events-secret-value" type="text" readonly value="${d.newEventsSecret}" autocomplete="off" spellcheck="false">
<button type="button" class="secondary" data-copy="new-events-secret-value" hidden>Copy</button></div>
</div>`
  : ''}
<form method="post" action="${base}/events-url">${csrfField(d.csrf)}<input type="hidden" name="${SHOWN_SIGNING_SECRET}" value="${e.secretVersion}">
<label for="events-url-value">URL (https; leave empty to stop the notifications)</label>
<input id="events-url-value" name="eventsUrl" type="url" value="${e.eventsUrl ?? ''}" maxlength="2048">
<div class="actions"><button type="submit">Save events URL</button></div></form>
${e.hasSecret
  ? html`<form method="post" action="${base}/events-secret">${csrfField(d.csrf)}<input type="hidden" name="${SHOWN_SIGNING_SECRET}" value="${e.secretVersion}"><p class="muted">Rotating replaces the signing secret at once: deliveries from then on are signed with the new one only.</p><button type="submit" class="secondary">Rotate signing secret</button></form>`
  : ''}
<h3>Recent deliveries</h3>
${e.deliveries.length === 0
  ? html`<p class="muted" id="no-deliveries">Nothing sent yet.</p>`
  : html`<div class="table-wrap"><table class="deliveries" id="deliveries">
<thead><tr><th scope="col">Time</th><th scope="col">Event</th><th scope="col">State</th><th scope="col">Status code</th><th scope="col">Attempts</th><th scope="col">Next attempt</th><th scope="col">Answer (first 1 KB)</th></tr></thead>
<tbody>${e.deliveries.map(
      (x) => html`<tr data-delivery="${x.id}"><td>${time(x.createdAt)}</td><td><code>${x.event}</code></td><td>${deliveryState(x)}</td><td>${x.responseStatus === null ? html`<span class="muted">—</span>` : String(x.responseStatus)}</td><td>${String(x.attempts)}</td><td>${x.status === 'pending' ? time(x.nextAttemptAt) : html`<span class="muted">—</span>`}</td><td>${x.error ? html`<span class="error">${x.error}</span>` : html`<code>${x.responseBody ?? ''}</code>`}</td></tr>`,
    )}</tbody></table></div>`}
</section>`;
}

export function clientPage(d: ClientPageData): Html {
  const c = d.client;
  return html`<p class="crumbs"><a href="${clientPath('')}">Your OAuth clients</a></p>
<div class="card">
<div class="title-row"><h1 id="client-title">${c.name}</h1>${stateBadge(c.state)}${c.legacy ? html`<span class="badge legacy">Legacy</span>` : ''}</div>
${d.notice ? html`<p class="flash" role="status" id="flash">${d.notice}</p>` : ''}
${stateExplanation(c)}
${queryWarning([...c.redirectUris, ...c.proposedRedirectUris], 'redirect-query-warning')}
<h2>Configure your application</h2>
<dl class="facts">
<dt>Client ID</dt><dd><code id="client-id">${c.clientId}</code></dd>
<dt>Issuer</dt><dd><code id="issuer">${breakableUrl(d.urls.issuer)}</code> <span class="muted">(what discovery starts from, and the <code>iss</code> of every answer)</span></dd>
<dt>Metadata URL</dt><dd><code id="metadata-url">${breakableUrl(d.urls.metadata)}</code> <span class="muted">(RFC 8414: every endpoint below, for a library that discovers them)</span></dd>
<dt>Authorization URL</dt><dd><code id="authorize-url">${breakableUrl(d.urls.authorize)}</code></dd>
<dt>Access-token URL</dt><dd><code id="token-url">${breakableUrl(d.urls.token)}</code> <span class="muted">(<code>grant_type=authorization_code</code>)</span></dd>
<dt>Refresh-token URL</dt><dd><code id="refresh-url">${breakableUrl(d.urls.token)}</code> <span class="muted">(the same URL, <code>grant_type=refresh_token</code>)</span></dd>
<dt>Kind</dt><dd>${c.kind === 'public' ? 'Public (PKCE, no secret)' : 'Confidential (client secret)'}</dd>
<dt>Pushed authorization requests</dt><dd id="par"><code>${breakableUrl(d.urls.par)}</code> <span class="muted">(RFC 9126; ${c.requirePushedAuthorizationRequests ? 'required of this client' : 'optional for this client'})</span></dd>
</dl>
<p><a class="button secondary" href="${clientPath(c.clientId)}/edit">Edit client</a></p>
</div>
${heldChanges(c)}
<section class="card" aria-labelledby="details-title">
<h2 id="details-title">${c.state === 'approved' || c.state === 'suspended' ? 'Approved configuration' : 'Configuration'}</h2>
<dl class="facts">
<dt>Description</dt><dd>${c.description || html`<span class="muted">none</span>`}</dd>
<dt>Homepage</dt><dd>${c.homepageUrl ? html`<a href="${c.homepageUrl}" rel="noopener noreferrer">${breakableUrl(c.homepageUrl)}</a>` : html`<span class="muted">none</span>`}</dd>
<dt>Logo</dt><dd class="logo-fact">${logoImage(c, 48)}${c.logoUrl ? html`<code>${breakableUrl(c.logoUrl)}</code>` : html`<span class="muted">none: users see this monogram</span>`}</dd>
<dt>Redirect URIs</dt><dd><ul class="plain" id="redirect-uris">${c.redirectUris.map((u) => html`<li><code>${breakableUrl(u)}</code></li>`)}</ul></dd>
<dt>DPoP</dt><dd id="dpop">${c.dpopBoundAccessTokens ? 'Required: every token request must carry a DPoP proof' : 'Optional: tokens are DPoP-bound when a request carries a proof'}</dd>
<dt>FAPI 2.0</dt><dd id="fapi2">${c.fapi2 ? 'Follows the Security Profile: PAR, PKCE S256, DPoP and private_key_jwt are required' : 'Not followed'}</dd>
<dt>Client authentication</dt><dd id="token-endpoint-auth-method">${authenticationFact(c)}</dd>
</dl>
<h3>Scopes</h3>
<div id="scopes">${c.scopes === null ? html`<p>None: a legacy client is not limited by scope.</p>` : scopeList(c.scopes)}</div>
</section>
${c.legacy ? legacySection(c, d.scopeless ?? 0) : ''}
${secretsSection({ ...d, base: clientPath(c.clientId) })}
${applicationEventsSection(d)}
<section class="card" aria-labelledby="events-title">
<h2 id="events-title">Activity</h2>
${eventTable(d.events, d.viewer)}
</section>`;
}

/**
 * How the client authenticates at the token endpoint, as the server takes it
 * (docs/rules.md#client-authentication): a client with a secret may send it either way,
 * whichever method it registered; only private_key_jwt is held to what was registered.
 */
function authenticationFact(c: ClientView): string {
  if (c.kind === 'public') return 'none (a public client sends its client_id and a PKCE verifier)';
  if (c.tokenEndpointAuthMethod === 'private_key_jwt') {
    const keys = c.jwks?.keys.length ?? 0;
    return `private_key_jwt (${keys} public key${keys === 1 ? '' : 's'} registered)`;
  }
  return 'client_secret_basic or client_secret_post: the secret in an HTTP Basic header, or client_id and client_secret in the request body';
}
