// What an admin sees when reviewing a client (docs/rules.md#client-states, docs/rules.md#client-changes): what it asks for —
// scopes in plain words, redirect hosts — its owner, held changes, and the decisions that
// apply in its state.
import type { ClientEvent } from '../../services/clients/events.ts';
import { hasHeldChange, type ClientView } from '../../services/clients/view.ts';
import type { User } from '../../services/accounts/users.ts';
import { eventTable } from '../events.ts';
import { fieldError, invalid, type FieldErrors } from '../forms.ts';
import { awaitingBadge, breakableUrl, hostOf, scopeList, stateBadge, time } from '../format.ts';
import { html, type Html } from '../html.ts';
import { csrfField } from '../pages.ts';
import { logoImage } from '../logos.ts';
import { secretsSection } from '../developer/client-page.ts';
import { ADMIN_CLIENTS, adminClientPath } from './paths.ts';
import { isLoopbackHost } from '../../oauth/redirect-uri.ts';

export interface ReviewPageData {
  client: ClientView;
  owner: Pick<User, 'name' | 'email'> | undefined;
  events: ClientEvent[];
  viewer: { id: string; admin: boolean };
  csrf: string;
  errors: FieldErrors;
  /** Which form the error belongs to, so the reason field it concerns shows it. */
  failedDecision?: string | undefined;
  reason?: string | undefined;
  notice?: string | undefined;
  /** docs/rules.md#introspection: whether an admin marked the client as a resource server. */
  resourceServer: boolean;
  /** A refusal about the resource-server mark, shown in its section. */
  resourceServerError?: string | undefined;
  /** A refusal about secrets, shown in the secrets section. */
  secretError?: string | undefined;
  /** A secret just created: shown this once. */
  newSecret?: { secret: string; lastFour: string } | undefined;
}

function resourceServerSection(d: ReviewPageData): Html {
  const on = d.resourceServer;
  return html`<section class="card" id="resource-server" aria-labelledby="resource-server-title">
<h2 id="resource-server-title">Resource server</h2>
${d.resourceServerError ? html`<p class="error" role="alert" id="resource-server-error">${d.resourceServerError}</p>` : ''}
<p id="resource-server-state">${on
  ? html`<strong>Marked as a resource server:</strong> this client may introspect any client’s tokens.`
  : html`<strong>Not a resource server:</strong> this client may introspect only its own tokens.`}</p>
<form method="post" action="${adminClientPath(d.client.clientId)}/resource-server">${csrfField(d.csrf)}<input type="hidden" name="resource_server" value="${on ? 'off' : 'on'}">
<div class="actions"><button type="submit" ${on ? html`class="danger"` : ''}>${on ? 'Remove the resource-server mark' : 'Mark as a resource server'}</button></div></form>
</section>`;
}

/**
 * The site of a host name as its last two labels ("app.example.com" → "example.com"). Without
 * a public-suffix list, hosts under a two-label suffix ("a.co.uk", "b.co.uk") look alike: that
 * misses a risk rather than inventing one.
 */
function siteOf(hostname: string): string {
  return hostname.split('.').slice(-2).join('.');
}

function parsed(uri: string): URL | undefined {
  try {
    return new URL(uri);
  } catch {
    return undefined;
  }
}

/**
 * What a reviewer should look at twice, over the live configuration and
 * the changes awaiting review: organization-wide writes asked by a client without a secret,
 * a homepage on another site than where codes go, redirect URIs over plain http.
 */
export function risksOf(c: ClientView): Html[] {
  const risks: Html[] = [];
  const scopes = [...(c.scopes ?? []), ...c.proposedScopes];
  const orgWrites = scopes.filter((s) => s.startsWith('ORG_') && s.endsWith('_WRITE'));
  if (c.kind === 'public' && orgWrites.length > 0) {
    const membership = orgWrites.includes('ORG_MEMBERSHIP_WRITE');
    risks.push(
      html`<li id="risk-public-org-write"><strong>A public client asks for organization-wide changes:</strong> ${orgWrites.map((s, i) => html`${i > 0 ? ', ' : ''}<code>${s}</code>`)}. It has no secret, so anyone who copies its client ID can start sign-ins as it; one admin who allows it lets it change a whole organization${membership ? ', including who belongs to it and with which role' : ''}.</li>`,
    );
  }
  const redirects = [...c.redirectUris, ...c.proposedRedirectUris].map((u) => ({ uri: u, url: parsed(u) }));
  const home = c.homepageUrl ? parsed(c.homepageUrl) : undefined;
  const webHosts = redirects.flatMap((r) => (r.url && !isLoopbackHost(r.url.hostname) ? [r.url.hostname] : []));
  if (home !== undefined && webHosts.length > 0 && !webHosts.some((h) => siteOf(h) === siteOf(home.hostname))) {
    risks.push(
      html`<li id="risk-homepage-domain"><strong>The homepage is on another site than the redirect URIs:</strong> users are shown <code>${home.host}</code>, while codes go to ${[...new Set(webHosts)].map((h, i) => html`${i > 0 ? ', ' : ''}<code>${h}</code>`)}. Check that both belong to the same developer.</li>`,
    );
  }
  // Registration allows http only on loopback (RFC 8252 §7.3); a remote one could come from older data.
  const plain = redirects.filter((r) => r.url?.protocol === 'http:');
  if (plain.length > 0) {
    const remote = plain.some((r) => !isLoopbackHost(r.url!.hostname));
    risks.push(
      html`<li id="risk-http-redirect"><strong>A redirect URI uses plain http:</strong> ${plain.map((r, i) => html`${i > 0 ? ', ' : ''}<code>${breakableUrl(r.uri)}</code>`)}. ${remote
        ? 'Codes would cross the network unencrypted, where anyone on the way can read and use them.'
        : 'On a loopback address codes stay on the user’s computer, but any program listening on that port receives them: expected for a native or development app, not for a web application.'}</li>`,
    );
  }
  return risks;
}

function risksSection(c: ClientView): Html {
  const risks = risksOf(c);
  return html`<section class="card" id="risks" aria-labelledby="risks-title"><h2 id="risks-title">Risks to check</h2>
${risks.length === 0
  ? html`<p class="muted" id="no-risks">The automatic checks found none (organization-wide writes by a public client, a homepage on another site than the redirect URIs, plain http redirect URIs). They do not replace your review.</p>`
  : html`<ul class="notice bad risks">${risks}</ul>`}
</section>`;
}

function decisionForm(d: ReviewPageData, decision: string, label: string, options: { reason?: 'required' | 'optional'; danger?: boolean } = {}): Html {
  const id = `reason-${decision}`;
  const errors: FieldErrors = d.failedDecision === decision && d.errors.reason ? { [id]: d.errors.reason } : {};
  return html`<form method="post" action="${adminClientPath(d.client.clientId)}/review" class="decision">
${csrfField(d.csrf)}<input type="hidden" name="decision" value="${decision}">
<input type="hidden" name="version" value="${d.client.version}">
${options.reason
  ? html`<label for="${id}">Reason ${options.reason === 'required' ? html`<span class="muted">(required, shown to the developer)</span>` : html`<span class="muted">(optional, shown to the developer)</span>`}</label>
<textarea id="${id}" name="reason" rows="2" maxlength="1000" ${invalid(errors, id)}>${d.failedDecision === decision ? (d.reason ?? '') : ''}</textarea>${fieldError(errors, id)}`
  : ''}
<div class="actions"><button type="submit" ${options.danger ? html`class="danger"` : ''}>${label}</button></div>
</form>`;
}

function redirectList(uris: string[], marked = false): Html {
  return html`<ul class="plain">${uris.map((u) => html`<li><strong>${hostOf(u)}</strong> — <code>${breakableUrl(u)}</code>${marked ? html` ${awaitingBadge()}` : ''}</li>`)}</ul>`;
}

interface DecisionOffer {
  decision: string;
  label: string;
  reason?: 'required' | 'optional';
  danger?: boolean;
  /** What the admin should know before taking it. */
  note?: Html;
}

/** The decisions the client's state and held changes allow, in the order the page offers them. */
function offers(c: ClientView): DecisionOffer[] {
  const suspend: DecisionOffer = {
    decision: 'suspend',
    label: 'Suspend client',
    reason: 'optional',
    danger: true,
    note: html`<p class="muted">Suspending stops every token of this client at once; re-approving makes unexpired tokens work again.</p>`,
  };
  return [
    ...(c.state === 'pending' ? [{ decision: 'approve', label: 'Approve client' }, { decision: 'reject', label: 'Reject client', reason: 'required', danger: true } as const] : []),
    ...(hasHeldChange(c) ? [{ decision: 'approve-changes', label: 'Approve changes' }, { decision: 'reject-changes', label: 'Decline changes', reason: 'required', danger: true } as const] : []),
    ...(c.state === 'approved' ? [suspend] : []),
    ...(c.state === 'suspended' ? [{ decision: 'approve', label: 'Re-approve client' }] : []),
  ];
}

function decisions(d: ReviewPageData): Html {
  const parts = offers(d.client).map((offer) => html`${offer.note ?? ''}${decisionForm(d, offer.decision, offer.label, offer)}`);
  if (d.client.state === 'rejected') parts.push(html`<p class="muted">Rejected. The developer can edit the client and resubmit it.</p>`);
  return html`${parts}`;
}

export function reviewPage(d: ReviewPageData): Html {
  const c = d.client;
  const held = hasHeldChange(c);
  // Beside its field when the failed decision's form has one; above the decisions otherwise.
  const askedForReason = offers(c).some((offer) => offer.decision === d.failedDecision && offer.reason !== undefined);
  const reasonError = d.errors.reason && !askedForReason ? d.errors.reason : undefined;
  return html`<p class="crumbs"><a href="${ADMIN_CLIENTS}">Client review</a></p>
<div class="card">
<div class="title-row"><h1 id="client-title">${c.name}</h1>${stateBadge(c.state)}${c.legacy ? html`<span class="badge legacy">Legacy</span>` : ''}</div>
${d.notice ? html`<p class="flash" role="status" id="flash">${d.notice}</p>` : ''}
${d.errors.decision || reasonError ? html`<p class="error" role="alert" id="decision-error">${d.errors.decision ?? reasonError}</p>` : ''}
<dl class="facts">
<dt>Client ID</dt><dd><code>${c.clientId}</code></dd>
<dt>Version</dt><dd id="client-version">${c.version}</dd>
<dt>Owner</dt><dd>${d.owner ? html`${d.owner.name} (${d.owner.email})` : 'unknown'}</dd>
<dt>Kind</dt><dd>${c.kind}</dd>
<dt>Registered</dt><dd>${time(c.createdAt)}</dd>
<dt>Homepage</dt><dd>${c.homepageUrl ? html`<code>${breakableUrl(c.homepageUrl)}</code>` : html`<span class="muted">none</span>`}</dd>
<dt>Logo</dt><dd class="logo-fact">${logoImage(c, 48)}${c.logoUrl ? html`<code>${breakableUrl(c.logoUrl)}</code>` : html`<span class="muted">none: users see this monogram</span>`}</dd>
<dt>Description</dt><dd>${c.description || html`<span class="muted">none</span>`}</dd>
${c.reviewNote ? html`<dt>Review note</dt><dd>${c.reviewNote}</dd>` : ''}
${c.reviewedAt ? html`<dt>Last reviewed</dt><dd>${time(c.reviewedAt)}</dd>` : ''}
</dl>
<h2>Redirect hosts</h2>
${redirectList(c.redirectUris)}
<h2>Asks for</h2>
<div id="asked-scopes">${c.scopes === null ? html`<p>Everything in each user’s account (legacy client, no scopes).</p>` : scopeList(c.scopes)}</div>
</div>
${held
  ? html`<section class="card held" id="held-changes" aria-labelledby="held-title"><h2 id="held-title">${awaitingBadge()} Changes awaiting review</h2>
<p>The developer asks to add the following. The approved configuration above stays live until you approve.</p>
${c.proposedRedirectUris.length > 0 ? html`<h3>New redirect hosts</h3>${redirectList(c.proposedRedirectUris, true)}` : ''}
${c.proposedScopes.length > 0 ? html`<h3>New scopes</h3>${scopeList(c.proposedScopes)}` : ''}
</section>`
  : ''}
${risksSection(c)}
<section class="card" aria-labelledby="decide-title"><h2 id="decide-title">Decision</h2>${decisions(d)}</section>
${secretsSection({ client: c, csrf: d.csrf, base: adminClientPath(c.clientId), secretError: d.secretError, newSecret: d.newSecret })}
${resourceServerSection(d)}
<section class="card" aria-labelledby="events-title"><h2 id="events-title">Activity</h2>${eventTable(d.events, d.viewer)}</section>`;
}
