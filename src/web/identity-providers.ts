// /settings/organizations/:organizationId/identity-providers (docs/integrating.md#enterprise-managed-agents):
// the identity providers an organization trusts to grant its agents access for its members
// without a consent page, for the organization's owners only: register one (issuer, https keys
// address, e-mail domains, the scopes it may grant), see per provider which agents got tokens
// for which member, with their scopes and last use, and Revoke that access; remove a provider,
// which ends everything it granted, after a confirmation page. Anyone else, the organization's
// admins included, gets the same 404 as for an organization that does not exist: a provider
// speaks for every member, owners included, so choosing one is an owner's decision. Every form
// is CSRF-checked and answers with a redirect (docs/rules.md#forms-and-pages).
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../context.ts';
import { familyTitles, scopeRegistry, type ScopeFamily } from '../oauth/scopes.ts';
import type { User } from '../services/accounts/users.ts';
import { notFound, ServiceError } from '../services/errors.ts';
import { listAgentAccess, revokeAgentAccess, type AgentAccess } from '../services/identity-providers/agent-access.ts';
import {
  addIdentityProvider,
  checkDomains,
  checkIssuer,
  checkJwksUri,
  checkScopes,
  listIdentityProviders,
  removeIdentityProvider,
  type IdentityProvider,
} from '../services/identity-providers/identity-providers.ts';
import type { Organization } from '../services/teams/store.ts';
import { organizationOwnedBy } from '../services/teams/teams.ts';
import { signedIn } from './access.ts';
import { collect, errorSummary, fieldError, formBody, invalid, listField, sentence, statusOf, textField, type FieldErrors } from './forms.ts';
import { breakableUrl, scopeList, time } from './format.ts';
import { html, type Html } from './html.ts';
import { csrfField, sendErrorPage, sendPage } from './pages.ts';
import { identityProvidersPath, TEAMS } from './teams.ts';


const providerPath = (organizationId: string, id: string) => `${identityProvidersPath(organizationId)}/${encodeURIComponent(id)}`;
const removePath = (organizationId: string, id: string) => `${providerPath(organizationId, id)}/remove`;
const revokePath = (organizationId: string, id: string, grantId: string) => `${providerPath(organizationId, id)}/agents/${encodeURIComponent(grantId)}/revoke`;

/** Ids are short; anything far longer names nothing and is not looked up. */
const MAX_ID_LENGTH = 200;

const fieldLabels: Record<string, string> = { issuer: 'Issuer', jwks_uri: 'Keys address (jwks_uri)', domains: 'E-mail domains', scopes: 'Scopes it may grant' };

interface FormValues {
  issuer: string;
  jwks_uri: string;
  domains: string;
  scopes: string[];
}

const emptyForm: FormValues = { issuer: '', jwks_uri: '', domains: '', scopes: [] };

/** The organization of the path, if this user owns it; the same 404 otherwise, whether or not it exists. */
async function ownedOrganization(ctx: AppContext, user: User, organizationId: string): Promise<Organization> {
  const organization = organizationId.length <= MAX_ID_LENGTH ? await organizationOwnedBy(ctx.services.stores, organizationId, user.id) : undefined;
  if (organization === undefined) throw notFound('there is no organization with this id among the organizations you own');
  return organization;
}

/** The domains as typed: one per line, or separated by spaces or commas. */
const domainsOf = (text: string) => text.split(/[\s,]+/).filter((d) => d !== '');

function readForm(request: FastifyRequest): FormValues {
  const body = formBody(request);
  return { issuer: textField(body, 'issuer', 2000), jwks_uri: textField(body, 'jwks_uri', 2000), domains: textField(body, 'domains', 20_000), scopes: listField(body, 'scopes') };
}

/** The service's checks, field by field, so every problem shows at once beside its field. */
function checkForm(values: FormValues): FieldErrors {
  const errors: FieldErrors = {};
  collect(errors, 'issuer', () => checkIssuer(values.issuer));
  collect(errors, 'jwks_uri', () => checkJwksUri(values.jwks_uri));
  collect(errors, 'domains', () => checkDomains(domainsOf(values.domains)));
  collect(errors, 'scopes', () => checkScopes(values.scopes));
  return errors;
}

function scopesField(selected: readonly string[], errors: FieldErrors): Html {
  const families: ScopeFamily[] = ['identity', 'personal', 'team', 'organization'];
  return html`<fieldset id="scopes" ${invalid(errors, 'scopes')}>
<legend>Scopes it may grant <span class="muted">(optional)</span></legend>
<p class="hint" id="scopes-hint">Tick none to let it grant any scope the application registered. A token it grants acts for one member and reaches only what that member may reach: the organization scopes, only where the member is an admin or owner.</p>
${fieldError(errors, 'scopes')}
${families.map(
  (family) => html`<details class="scope-family" ${selected.some((s) => scopeRegistry.find((d) => d.name === s)?.family === family) ? html`open` : ''}>
<summary>${familyTitles[family]} <span class="muted">(${family} scopes)</span></summary>
${scopeRegistry
  .filter((s) => s.family === family)
  .map(
    (s) => html`<div class="check"><input type="checkbox" id="scope-${s.name}" name="scopes" value="${s.name}" ${selected.includes(s.name) ? html`checked` : ''}>
<label for="scope-${s.name}"><code>${s.name}</code> ${s.description}</label></div>`,
  )}
</details>`,
)}
</fieldset>`;
}

function addForm(organization: Organization, values: FormValues, errors: FieldErrors, csrf: string): Html {
  return html`<section class="card" aria-labelledby="add-title" id="add">
<h2 id="add-title">Add an identity provider</h2>
<form method="post" action="${identityProvidersPath(organization.id)}" novalidate>
${errorSummary(errors, fieldLabels)}
${csrfField(csrf)}
<label for="issuer">Issuer</label>
<p class="hint" id="issuer-hint">Its issuer identifier, exactly as its ID-JAGs carry it in <code>iss</code>, like <code>https://acme.okta.com</code>.</p>
<input id="issuer" name="issuer" type="url" required value="${values.issuer}" ${invalid(errors, 'issuer')}>
${fieldError(errors, 'issuer')}
<label for="jwks_uri">Keys address (jwks_uri)</label>
<p class="hint" id="jwks_uri-hint">Where it publishes the keys it signs with, over https.</p>
<input id="jwks_uri" name="jwks_uri" type="url" required value="${values.jwks_uri}" ${invalid(errors, 'jwks_uri')}>
${fieldError(errors, 'jwks_uri')}
<label for="domains">E-mail domains</label>
<p class="hint" id="domains-hint">The domains it speaks for, one per line, like <code>acme.com</code>. A member is recognized by an address in one of them that they verified.</p>
<textarea id="domains" name="domains" rows="3" required ${invalid(errors, 'domains')}>${values.domains}</textarea>
${fieldError(errors, 'domains')}
${scopesField(values.scopes, errors)}
<div class="actions"><button type="submit">Add identity provider</button></div>
</form>
</section>`;
}

function agentRow(organizationId: string, provider: IdentityProvider, a: AgentAccess, csrf: string): Html {
  return html`<tr data-grant="${a.grantId}" id="agent-${a.grantId}">
<td>${a.clientName}</td>
<td>${a.userName} <span class="muted">${a.userEmail}</span></td>
<td>${a.scopes.map((s, i) => html`${i > 0 ? ' ' : ''}<code>${s}</code>`)}</td>
<td>${time(a.firstGrantedAt)}</td>
<td>${a.lastUsedAt === null ? html`<span class="muted">not recently</span>` : time(a.lastUsedAt)}</td>
<td><form method="post" action="${revokePath(organizationId, provider.id, a.grantId)}">${csrfField(csrf)}<button type="submit" class="danger">Revoke<span class="visually-hidden"> the access of ${a.clientName} for ${a.userEmail}</span></button></form></td>
</tr>`;
}

function providerCard(organization: Organization, provider: IdentityProvider, agents: AgentAccess[], csrf: string): Html {
  return html`<section class="card identity-provider" id="provider-${provider.id}" data-provider="${provider.id}" aria-labelledby="provider-title-${provider.id}">
<h2 id="provider-title-${provider.id}"><code>${breakableUrl(provider.issuer)}</code></h2>
<p id="provider-keys-${provider.id}">Keys: <code>${breakableUrl(provider.jwksUri)}</code></p>
<p id="provider-domains-${provider.id}">Speaks for: ${provider.domains.join(', ')}</p>
<div id="provider-scopes-${provider.id}">${provider.scopes === null ? html`<p>It may grant any scope the application registered.</p>` : html`<p>It may grant:</p>${scopeList(provider.scopes)}`}</div>
<p class="muted">Added on ${time(provider.createdAt)}.</p>
<h3>Agents it granted access</h3>
${agents.length === 0
  ? html`<p class="muted" id="no-agents-${provider.id}">No agent holds access through it.</p>`
  : html`<div class="table-wrap"><table class="agents" id="agents-${provider.id}">
<thead><tr><th scope="col">Agent</th><th scope="col">For</th><th scope="col">Scopes</th><th scope="col">Granted</th><th scope="col">Last got a token</th><th scope="col"><span class="visually-hidden">Revoke</span></th></tr></thead>
<tbody>${agents.map((a) => agentRow(organization.id, provider, a, csrf))}</tbody></table></div>`}
<div class="actions"><a class="button danger" href="${removePath(organization.id, provider.id)}">Remove<span class="visually-hidden"> ${provider.issuer}</span></a></div>
</section>`;
}

/** The confirmation a redirect asks for. */
function flash(query: Record<string, unknown>): Html | '' {
  const message = (text: string) => html`<p class="flash" role="status" id="flash">${text}</p>`;
  if (query.added === '1') return message('The identity provider was added. Its ID-JAGs are trusted from now on.');
  if (query.removed === '1') return message('The identity provider was removed: everything it granted ended, and its ID-JAGs are no longer trusted.');
  if (query.revoked === '1') return message('The agent’s access was revoked: its tokens stopped working at once. The identity provider may grant it again, as its policy allows.');
  return '';
}

interface PageParts {
  organization: Organization;
  providers: Array<{ provider: IdentityProvider; agents: AgentAccess[] }>;
  values: FormValues;
  errors: FieldErrors;
  csrf: string;
  query: Record<string, unknown>;
}

function providersPage(p: PageParts): Html {
  return html`<p class="crumbs"><a href="${TEAMS}">Teams and organizations</a></p>
<div class="card"><h1 id="identity-providers-title">Identity providers of ${p.organization.name}</h1>
${flash(p.query)}
<p id="how-providers-work">An identity provider your organization signs its people in with (Okta, Entra ID, Google Workspace…) can let your organization’s AI agents reach Gatehouse for its members without a consent page, as its own policy allows: the agent trades the provider’s ID-JAG for an access token, never a refresh token. A member is recognized by an address in the provider’s domains that they verified. Each member sees such access on their Authorized apps page, and can revoke it there. Only the organization’s owners see this page.</p>
</div>
${p.providers.length === 0 ? html`<div class="card"><p class="muted" id="no-providers">${p.organization.name} trusts no identity provider.</p></div>` : ''}
${p.providers.map(({ provider, agents }) => providerCard(p.organization, provider, agents, p.csrf))}
${addForm(p.organization, p.values, p.errors, p.csrf)}`;
}

async function renderPage(ctx: AppContext, request: FastifyRequest, reply: FastifyReply, status: number, organization: Organization, values: FormValues, errors: FieldErrors): Promise<FastifyReply> {
  const providers = await Promise.all((await listIdentityProviders(ctx.services, organization.id)).map(async (provider) => ({ provider, agents: await listAgentAccess(ctx.services, organization.id, provider.id) })));
  const query = status === 200 ? (request.query as Record<string, unknown>) : {};
  return sendPage(reply, request, status, `Identity providers of ${organization.name}`, providersPage({ organization, providers, values, errors, csrf: reply.generateCsrf(), query }));
}

/** The confirmation before removing: what ends, Remove and Cancel. */
function removePage(organization: Organization, provider: IdentityProvider, agents: AgentAccess[], csrf: string): Html {
  const members = new Set(agents.map((a) => a.userId)).size;
  return html`<p class="crumbs"><a href="${identityProvidersPath(organization.id)}">Identity providers of ${organization.name}</a></p>
<div class="card"><h1 id="remove-title">Remove the identity provider <code>${breakableUrl(provider.issuer)}</code>?</h1>
<p class="notice bad" id="remove-consequence">${agents.length === 0
    ? 'No agent holds access through it now.'
    : `${agents.length} agent access${agents.length === 1 ? '' : 'es'} for ${members} member${members === 1 ? '' : 's'} it granted end${agents.length === 1 ? 's' : ''} at once, with every token.`} Its ID-JAGs are no longer trusted; to trust it again, add it again.</p>
<form method="post" action="${removePath(organization.id, provider.id)}">${csrfField(csrf)}
<div class="actions"><button type="submit" class="danger">Remove ${provider.issuer}</button><a class="button secondary" href="${identityProvidersPath(organization.id)}">Cancel</a></div></form>
</div>`;
}

type OrgParams = { Params: { organizationId: string } };
type ProviderParams = { Params: { organizationId: string; id: string } };

export async function identityProvidersRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const base = '/settings/organizations/:organizationId/identity-providers';

  app.get<OrgParams>(base, async (request, reply) => {
    const user = signedIn(request, reply);
    if (!user) return reply;
    const organization = await ownedOrganization(ctx, user, request.params.organizationId);
    return renderPage(ctx, request, reply, 200, organization, emptyForm, {});
  });

  app.post<OrgParams>(base, { preHandler: app.csrfProtection }, async (request, reply) => {
    const user = signedIn(request, reply);
    if (!user) return reply;
    const organization = await ownedOrganization(ctx, user, request.params.organizationId);
    const values = readForm(request);
    const errors = checkForm(values);
    if (Object.keys(errors).length > 0) return renderPage(ctx, request, reply, 400, organization, values, errors);
    try {
      await addIdentityProvider(ctx.services, { organizationId: organization.id, issuer: values.issuer, jwksUri: values.jwks_uri, domains: domainsOf(values.domains), scopes: values.scopes }, { actorId: user.id });
    } catch (error) {
      if (!(error instanceof ServiceError) || error.kind === 'not_found') throw error;
      return renderPage(ctx, request, reply, statusOf(error), organization, values, { [error.field ?? 'issuer']: sentence(error.message) });
    }
    return reply.redirect(`${identityProvidersPath(organization.id)}?added=1`, 303);
  });

  app.get<ProviderParams>(`${base}/:id/remove`, async (request, reply) => {
    const user = signedIn(request, reply);
    if (!user) return reply;
    const organization = await ownedOrganization(ctx, user, request.params.organizationId);
    const id = request.params.id.slice(0, MAX_ID_LENGTH);
    const provider = (await listIdentityProviders(ctx.services, organization.id)).find((p) => p.id === id);
    if (provider === undefined) return sendErrorPage(reply, request, 404, 'Not found', `${organization.name} has no such identity provider: it may have been removed already.`);
    const agents = await listAgentAccess(ctx.services, organization.id, provider.id);
    return sendPage(reply, request, 200, `Remove ${provider.issuer}`, removePage(organization, provider, agents, reply.generateCsrf()));
  });

  app.post<ProviderParams>(`${base}/:id/remove`, { preHandler: app.csrfProtection }, async (request, reply) => {
    const user = signedIn(request, reply);
    if (!user) return reply;
    const organization = await ownedOrganization(ctx, user, request.params.organizationId);
    // The CLI's removal (gatehouse orgs idp remove): everything it granted ends with it.
    await removeIdentityProvider(ctx.services, organization.id, request.params.id.slice(0, MAX_ID_LENGTH), { actorId: user.id });
    return reply.redirect(`${identityProvidersPath(organization.id)}?removed=1`, 303);
  });

  app.post<{ Params: { organizationId: string; id: string; grantId: string } }>(`${base}/:id/agents/:grantId/revoke`, { preHandler: app.csrfProtection }, async (request, reply) => {
    const user = signedIn(request, reply);
    if (!user) return reply;
    const organization = await ownedOrganization(ctx, user, request.params.organizationId);
    const input = { organizationId: organization.id, identityProviderId: request.params.id.slice(0, MAX_ID_LENGTH), grantId: request.params.grantId.slice(0, MAX_ID_LENGTH) };
    await revokeAgentAccess(ctx.services, input, { actorId: user.id });
    return reply.redirect(`${identityProvidersPath(organization.id)}?revoked=1`, 303);
  });
}
