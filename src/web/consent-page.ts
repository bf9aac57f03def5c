// The consent page (docs/rules.md#authorization-request; docs/rules.md#consent): what a person judges an
// application by, as the large providers show it — its logo, name, description, developer
// and homepage; the account being used, with a way to switch; what it may do, in plain
// words grouped by family with the changes marked; where the browser goes next; Allow and
// Deny.
import type { AuthorizationRequest } from '../oauth/authorize/index.ts';
import { describeScope, familyTitles, isKnownScope, type ScopeFamily } from '../oauth/scopes.ts';
import type { ClientView } from '../services/clients/view.ts';
import type { MembershipOfUser } from '../services/teams/store.ts';
import { isAdmin } from '../services/teams/teams.ts';
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
  /** The user's teams and organizations today: what the team and organization scopes reach. */
  memberships: readonly MembershipOfUser[];
}

/** A scope that lets the application change data, not only read it. */
const changesData = (name: string) => name.endsWith('_WRITE');


/** "A, B and C", each name strong. */
function listed(items: readonly Html[]): Html {
  if (items.length <= 1) return html`${items}`;
  return html`${items.slice(0, -1).map((item, i) => html`${i > 0 ? ', ' : ''}${item}`)} and ${items[items.length - 1]!}`;
}

/**
 * Which teams the team scopes reach, as the access check decides it at each request
 * (src/platform/membership.ts, docs/rules.md#membership-rules): every team the user belongs
 * to at that moment, and every team of an organization the user is an admin or owner of;
 * changes only where the user is an admin or owner. So the list is today's, and the words
 * say that a team joined later is reached too.
 */
function teamReach(memberships: readonly MembershipOfUser[], writes: boolean): Html {
  const adminOrgs = memberships.filter((m) => m.organizationId !== null && isAdmin(m.role));
  // A team of an organization named as "every team of" it is not named again on its own.
  const coveredBy = new Set(adminOrgs.map((m) => m.organizationId));
  const teams = memberships.filter((m) => m.teamId !== null && !(m.teamOrgId !== null && coveredBy.has(m.teamOrgId)));
  const reached = [
    ...teams.map((m) => html`<strong>${m.targetName}</strong> (${m.role})`),
    ...adminOrgs.map((m) => html`every team of <strong>${m.targetName}</strong> (organization ${m.role})`),
  ];
  if (reached.length === 0) {
    return html`<p class="reach muted" id="reach-team">You belong to no team today, so these permissions reach none now. They would reach any team you join later, while you are in it.</p>`;
  }
  const changeable = [...teams.filter((m) => isAdmin(m.role)).map((m) => html`<strong>${m.targetName}</strong>`), ...adminOrgs.map((m) => html`the teams of <strong>${m.targetName}</strong>`)];
  const changes = !writes
    ? ''
    : changeable.length === 0
      ? html` It can make changes only where you are an admin or owner: today, in none of them.`
      : html` It can make changes only where you are an admin or owner: today, in ${listed(changeable)}.`;
  return html`<p class="reach" id="reach-team">In every team you belong to, now and later. Today: ${listed(reached)}.${changes}</p>`;
}

/**
 * Which organizations the organization scopes reach: those the user is an admin or owner of
 * when the application calls (docs/rules.md#membership-rules); an organization scope also
 * stands in for the team scope of the same kind (docs/rules.md#scope-checks).
 */
function organizationReach(memberships: readonly MembershipOfUser[], scopes: readonly string[]): Html {
  const orgs = memberships.filter((m) => m.organizationId !== null);
  const admin = orgs.filter((m) => isAdmin(m.role));
  const memberOnly = orgs.filter((m) => !isAdmin(m.role));
  const notReached = memberOnly.length === 0 ? '' : html` Not ${listed(memberOnly.map((m) => html`<strong>${m.targetName}</strong>`))}, where you are a member only.`;
  // Only where a team scope of the same kind exists (ORG_WEBHOOK_* has none).
  const teamsToo = scopes.some((name) => isKnownScope(`TEAM_${name.slice('ORG_'.length)}`))
    ? ' Each also counts as the matching team permission, so it reaches every team you belong to as well.'
    : '';
  if (admin.length === 0) {
    return html`<p class="reach muted" id="reach-organization">You are an admin or owner of no organization today, so these permissions reach none now; they would reach one where you become an admin or owner later.${notReached}${teamsToo}</p>`;
  }
  return html`<p class="reach" id="reach-organization">In every organization where you are an admin or owner, now and later. Today: ${listed(admin.map((m) => html`<strong>${m.targetName}</strong> (${m.role})`))}.${notReached}${teamsToo}</p>`;
}

/**
 * docs/integrating.md#sign-in-with-gatehouse: the identity scopes say in one sentence what the
 * application learns of the user, on the consent page and in authorized apps alike.
 */
function identityReach(scopes: readonly string[]): Html {
  const learned = [...(scopes.includes('profile') ? ['your name'] : []), ...(scopes.includes('email') ? ['your email address'] : [])];
  const what = learned.length === 0 ? 'your Gatehouse account, but not your name or email address' : learned.join(' and ');
  return html`<p class="reach" id="reach-identity">The application learns who you are: ${what}. It can sign you in with your Gatehouse account.</p>`;
}

/** docs/rules.md#team-authorization: a grant that acts for a team reaches that team alone. */
function oneTeamReach(team: string): Html {
  return html`<p class="reach" id="reach-team">In the team <strong>${team}</strong> only, and only while you are an owner or admin of it.</p>`;
}

/**
 * The scopes in plain words, grouped by family, those that can make changes marked; with
 * `memberships`, the team and organization groups say what they reach.
 */
export function scopeGroups(scopes: readonly string[], memberships?: readonly MembershipOfUser[], forTeam?: string): Html {
  const families = new Map<ScopeFamily, string[]>();
  for (const name of scopes) {
    const family = describeScope(name)!.family;
    families.set(family, [...(families.get(family) ?? []), name]);
  }
  return html`${[...families].map(([family, names]) => {
    // Reading first, then changing: the weightier permissions stand together, marked.
    const ordered = [...names.filter((n) => !changesData(n)), ...names.filter(changesData)];
    const reach =
      family === 'identity'
        ? identityReach(names)
        : memberships === undefined ? '' : family === 'team' ? (forTeam === undefined ? teamReach(memberships, names.some(changesData)) : oneTeamReach(forTeam)) : family === 'organization' ? organizationReach(memberships, names) : '';
    return html`<section class="scope-group"><h3>${familyTitles[family]}</h3>${reach}<ul class="scopes">${ordered.map(
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
<h1><span id="client-name">${client.name}</span> ${request.team === undefined ? 'wants to access your account' : html`wants to act for the team <strong id="team-name">${request.team.name}</strong>`}</h1>
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
${request.team === undefined
  ? ''
  : html`<p class="notice" id="team-notice">You are authorizing it <strong>for ${request.team.name}</strong>, as one of its owners or admins: it will act for the team, not for you, and reach nothing of your own. It stops working if you stop being an owner or admin of the team, and when the team is deleted.</p>`}
${request.scopes === null
  ? html`<p class="notice bad" id="legacy-notice">This application was registered before permissions existed. If you allow it, it can read and change <strong>everything in ${request.team === undefined ? 'your account' : html`the team ${request.team.name}`}</strong>.</p>`
  : html`<h2>It will be able to:</h2><div id="requested-scopes">${scopeGroups(request.scopes, d.memberships, request.team?.name)}</div>`}
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
