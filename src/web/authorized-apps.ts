// /settings/authorized-apps (docs/rules.md#consent): the applications a user approved, one card
// for each party an application acts for (the user, or a team the user authorized it for,
// docs/rules.md#team-authorization), with its logo, its own scopes in plain words (those that
// can make changes marked, as on the consent page), when it last got a token, and its own
// Revoke, which asks for confirmation on a page of its own and then ends every token of that
// card at once, and no other. Access an organization's identity provider granted the application
// for the user (docs/integrating.md#enterprise-managed-agents) has a card of its own, saying so,
// and the same Revoke.
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.ts';
import { grantOfUser, listAuthorizedApps, revokeAuthorizedApp, type AuthorizedApp } from '../services/clients/authorized-apps.ts';
import { signedIn } from './access.ts';
import { scopeGroups } from './consent-page.ts';
import { breakableUrl, time } from './format.ts';
import { html, type Html } from './html.ts';
import { logoImage } from './logos.ts';
import { csrfField, sendErrorPage, sendPage } from './pages.ts';

export const AUTHORIZED_APPS = '/settings/authorized-apps';

/** Grant ids are 22 characters (timeOrderedId); anything far longer names no grant and is not looked up. */
const MAX_GRANT_ID_LENGTH = 64;

const revokePath = (grantId: string) => `${AUTHORIZED_APPS}/grants/${encodeURIComponent(grantId)}/revoke`;

/** For whom the card's access acts, as words after the application's name. */
function forWhom(team: AuthorizedApp['team']): Html {
  return team === null ? html`for you` : html`for the team ${team.name}`;
}

/** For whom, and by whom when not by the user: how a card is named, on its own and beside the application's others. */
function partyWords(o: AuthorizedApp): Html {
  return o.grantedBy === null ? forWhom(o.team) : html`${forWhom(o.team)} granted by your organization’s identity provider`;
}

/**
 * When the application last used this access, as far as can be known without a write on every
 * API call: the newest token it got through it (a code exchange or a refresh). Tokens past
 * retention (docs/rules.md#retention) are gone, so an old one says "not recently".
 */
function lastUsed(app: AuthorizedApp): Html {
  return html`<p class="muted" id="last-used-${app.grantId}">${app.lastUsedAt === null
    ? 'Last used: not recently (no token it got is still on record).'
    : html`Last used: ${time(app.lastUsedAt)}, when it last got a token (${app.grantedBy === null ? 'signing you in or refreshing' : 'with a grant of your organization’s identity provider'}).`}</p>`;
}

/** Who granted it: the user, or the identity provider of one of the user's organizations. */
function organizationWords(grantedBy: NonNullable<AuthorizedApp['grantedBy']>): Html {
  return grantedBy.organizationName === null ? html`an organization` : html`<strong>${grantedBy.organizationName}</strong>`;
}

function approved(app: AuthorizedApp): Html {
  const since = html`${time(app.firstApprovedAt)}${app.lastApprovedAt !== app.firstApprovedAt ? html`, most recently on ${time(app.lastApprovedAt)}` : ''}`;
  if (app.grantedBy === null) return html`<p class="muted">You approved it on ${since}.</p>`;
  return html`<p id="granted-by-${app.grantId}"><strong>Granted by your organization’s identity provider</strong>, not by you: the identity provider of ${organizationWords(app.grantedBy)} granted it on ${since}, as that organization’s policy allows, without asking you.</p>`;
}

function canDo(app: AuthorizedApp): Html {
  if (app.scopes === null) {
    return html`<p class="notice bad">Read and change <strong>everything in ${app.team === null ? 'your account' : html`the team ${app.team.name}`}</strong> (an application registered before permissions existed).</p>`;
  }
  // A team's grant holds team scopes only, and they reach that team alone (docs/rules.md#team-authorization).
  return app.team === null ? scopeGroups(app.scopes) : scopeGroups(app.scopes, [], app.team.name);
}

/** docs/rules.md#team-authorization: a team's access holds only while its approver may authorize for the team. */
function actsFor(app: AuthorizedApp): Html {
  if (app.team === null) return html`<p id="acts-for-${app.grantId}">It acts for you.</p>`;
  return html`<p id="acts-for-${app.grantId}">It acts for the team <strong>${app.team.name}</strong>, not for you, as you authorized it as an owner or admin of the team or of its organization; it works only while you still are one.</p>`;
}

function appCard(app: AuthorizedApp) {
  return html`<section class="card app" data-client="${app.clientId}" data-grant="${app.grantId}" aria-labelledby="grant-${app.grantId}">
<div class="title-row">${logoImage(app, 40)}<h2 id="grant-${app.grantId}">${app.name} <span class="muted">${partyWords(app)}</span></h2></div>
${app.homepageUrl ? html`<p><a href="${app.homepageUrl}" rel="noopener noreferrer">${breakableUrl(app.homepageUrl)}</a></p>` : ''}
${approved(app)}
${lastUsed(app)}
${actsFor(app)}
<h3>It can:</h3>
${canDo(app)}
<div class="actions"><a class="button danger" href="${revokePath(app.grantId)}">Revoke access<span class="visually-hidden"> for ${app.name} ${partyWords(app)}</span></a></div>
</section>`;
}

/** What asking again means: the user's consent, a team admin's, or the identity provider's policy. */
function again(app: AuthorizedApp): Html {
  if (app.grantedBy !== null) return html`Your organization’s identity provider may grant it again when the application asks it: ask ${organizationWords(app.grantedBy)} to stop it for good.`;
  return html`To use it again ${app.team === null ? 'you' : 'an owner or admin of the team'} will have to allow it again.`;
}

/** The confirmation before revoking: what ends, what stays, Revoke and Cancel. */
function revokePage(app: AuthorizedApp, others: AuthorizedApp[], csrf: string) {
  const ends = app.team === null ? html`Every token it holds for your account${app.grantedBy === null ? '' : ' through your organization’s identity provider'}` : html`Every token it holds for the team <strong>${app.team.name}</strong>, and the invite links they made,`;
  const kept = others.map((o, i) => html`${i > 0 ? ', ' : ''}${partyWords(o)}`);
  return html`<p class="crumbs"><a href="${AUTHORIZED_APPS}">Authorized apps</a></p>
<div class="card">
<div class="title-row">${logoImage(app, 40)}<h1 id="revoke-title">Revoke the access ${app.name} has ${partyWords(app)}?</h1></div>
${lastUsed(app)}
<p class="notice bad" id="revoke-consequence">${ends} stops working at once. ${again(app)}</p>
${others.length > 0 ? html`<p id="revoke-keeps">Its access ${kept} is not revoked; it has a card of its own.</p>` : ''}
${actsFor(app)}
<h2>It can now:</h2>
${canDo(app)}
<form method="post" action="${revokePath(app.grantId)}">${csrfField(csrf)}
<div class="actions"><button type="submit" class="danger">Revoke access for ${app.name} ${partyWords(app)}</button><a class="button secondary" href="${AUTHORIZED_APPS}">Cancel</a></div></form>
</div>`;
}

export async function authorizedAppsRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  app.get(AUTHORIZED_APPS, async (request, reply) => {
    const user = signedIn(request, reply);
    if (!user) return reply;
    const apps = await listAuthorizedApps(ctx.services, user.id);
    const revokedId = (request.query as { revoked?: unknown }).revoked;
    // Only a grant of this user is named back.
    const revoked = typeof revokedId === 'string' && revokedId.length <= MAX_GRANT_ID_LENGTH ? await grantOfUser(ctx.services, user.id, revokedId) : undefined;
    return sendPage(
      reply,
      request,
      200,
      'Authorized apps',
      html`<div class="card"><h1>Authorized apps</h1>
${revoked ? html`<p class="flash" role="status" id="flash">You revoked the access <strong>${revoked.clientName}</strong> had ${forWhom(revoked.team)}${revoked.grantedBy === null ? '' : ' through your organization’s identity provider'}. Its tokens stopped working at once.</p>` : ''}
<p>Applications you allowed to act for you, or for a team you are an owner or admin of, and those your organization’s identity provider granted access for you: one card for each. Revoking one ends every token it holds for you, or for that team, at once, and leaves the others working; it would have to ask again.</p>
${apps.length === 0 ? html`<p class="muted" id="no-apps">You have not authorized any application.</p>` : ''}
</div>
${apps.map((a) => appCard(a))}`,
    );
  });

  app.get<{ Params: { grantId: string } }>(`${AUTHORIZED_APPS}/grants/:grantId/revoke`, async (request, reply) => {
    const user = signedIn(request, reply);
    if (!user) return reply;
    const apps = await listAuthorizedApps(ctx.services, user.id);
    const found = apps.find((a) => a.grantIds.includes(request.params.grantId));
    if (found === undefined) return sendErrorPage(reply, request, 404, 'Not found', 'You have not authorized this application, or this access was already revoked.');
    const others = apps.filter((a) => a.clientId === found.clientId && a !== found);
    reply.header('cache-control', 'no-store');
    return sendPage(reply, request, 200, `Revoke access for ${found.name}`, revokePage(found, others, reply.generateCsrf()));
  });

  app.post<{ Params: { grantId: string } }>(`${AUTHORIZED_APPS}/grants/:grantId/revoke`, { preHandler: app.csrfProtection }, async (request, reply) => {
    const user = signedIn(request, reply);
    if (!user) return reply;
    // Looked up among this user's own grants only: another user's grant id is not found (404).
    const revoked = await revokeAuthorizedApp(ctx.services, user.id, request.params.grantId);
    return reply.redirect(`${AUTHORIZED_APPS}?revoked=${encodeURIComponent(revoked.id)}`, 303);
  });
}
