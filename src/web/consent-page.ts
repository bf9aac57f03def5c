// The consent page (docs/rules.md#authorization-request; docs/rules.md#consent; issue 13 item 3): what a person judges an
// application by, as the large providers show it — its logo, name, description, developer
// and homepage; the account being used, with a way to switch; what it may do, in plain
// words grouped by family with the changes marked; where the browser goes next; Allow and
// Deny.
import type { AuthorizationRequest } from '../oauth/authorize.ts';
import { describeScope, familyTitles, type ScopeFamily } from '../oauth/scopes.ts';
import type { ClientView } from '../services/clients/view.ts';
import { breakableUrl, hostOf } from './format.ts';
import { html, type Html } from './html.ts';
import { logoImage } from './logos.ts';
import { csrfField } from './pages.ts';

export interface ConsentPageData {
  request: AuthorizationRequest;
  /** The client as its developer described it. */
  client: Pick<ClientView, 'clientId' | 'name' | 'description' | 'homepageUrl'>;
  developer: string | undefined;
  account: { name: string; email: string };
  csrf: string;
  /** Where the consent form posts, with every parameter it carries as a hidden field. */
  action: string;
  hidden: Html[];
  /** docs/rules.md#cimd-policy: a metadata-document client nobody reviewed, named by the host that publishes it. */
  unverifiedHost?: string | undefined;
  /** Whether an admin (or a host an admin trusts) approved the application; false for one let in by an open policy. */
  reviewed: boolean;
  /** The same authorization request as a relative address, to come back to after switching account. */
  again: string;
}

/** A scope that lets the application change data, not only read it. */
const changesData = (name: string) => name.endsWith('_WRITE');

function scopeGroups(scopes: readonly string[]): Html {
  const families = new Map<ScopeFamily, string[]>();
  for (const name of scopes) {
    const family = describeScope(name)!.family;
    families.set(family, [...(families.get(family) ?? []), name]);
  }
  return html`${[...families].map(([family, names]) => {
    // Reading first, then changing: the weightier permissions stand together, marked.
    const ordered = [...names.filter((n) => !changesData(n)), ...names.filter(changesData)];
    return html`<section class="scope-group"><h3>${familyTitles[family]}</h3><ul class="scopes">${ordered.map(
      (name) => html`<li${changesData(name) ? html` class="writes"` : ''}>${describeScope(name)!.description}${changesData(name) ? html` <span class="badge writes">Can make changes</span>` : ''}</li>`,
    )}</ul></section>`;
  })}`;
}

export function consentPage(d: ConsentPageData): Html {
  const { client, request } = d;
  const homepage = client.homepageUrl;
  return html`<div class="card consent">
<div class="consent-head">
${logoImage(client, 64)}
<div>
<h1><span id="client-name">${client.name}</span> wants to access your account</h1>
<p class="muted" id="client-developer">${d.developer ? html`Developer: <strong>${d.developer}</strong>` : 'Developer not named'}${homepage ? html` · <a href="${homepage}" rel="noopener noreferrer" id="client-homepage">${hostOf(homepage)}</a>` : ''}</p>
</div>
</div>
${client.description ? html`<p id="client-description">${client.description}</p>` : ''}
${d.unverifiedHost !== undefined
  ? html`<p class="notice" id="unverified-notice"><strong>Unverified application.</strong> Nobody has reviewed it: it describes itself in a document published at <strong id="document-host">${d.unverifiedHost}</strong>. Allow it only if you know and trust that site.</p>`
  : d.reviewed
    ? ''
    : html`<p class="notice" id="unverified-notice"><strong>Unverified application.</strong> Nobody has reviewed it: it registered itself with this server. Allow it only if you know and trust it.</p>`}
<div class="account-row" id="signed-in-as">
<p>You are signed in as <strong>${d.account.name}</strong> <span class="muted">(${d.account.email})</span>.</p>
<form method="post" action="/logout" class="inline">${csrfField(d.csrf)}<input type="hidden" name="next" value="${d.again}"><button type="submit" class="link" id="switch-account">Not you? Switch account</button></form>
</div>
${request.scopes === null
  ? html`<p class="notice bad" id="legacy-notice">This application was registered before permissions existed. If you allow it, it can read and change <strong>everything in your account</strong>.</p>`
  : html`<h2>It will be able to:</h2><div id="requested-scopes">${scopeGroups(request.scopes)}</div>`}
<p id="return-to">After you decide, you will be sent back to <strong id="return-host">${hostOf(request.redirectUri)}</strong> <span class="muted">(<code>${breakableUrl(request.redirectUri)}</code>)</span>.</p>
<form method="post" action="${d.action}">
  ${csrfField(d.csrf)}
  ${d.hidden}
  <div class="actions">
    <button type="submit" name="decision" value="allow">Allow</button>
    <button type="submit" name="decision" value="deny" class="secondary">Deny</button>
  </div>
</form>
<p class="muted small">Only allow applications you trust. You can revoke this access at any time in <a href="/settings/authorized-apps">Authorized apps</a>.${d.reviewed ? ' A platform admin reviewed this application before it could ask.' : ''}</p>
</div>`;
}
