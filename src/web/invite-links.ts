// /settings/teams/:teamId/invite-links (docs/rules.md#invite-links): a team's invite links that
// have not expired, for whoever may administer the team (an owner or admin of it or of its
// organization), with who made each, through which application, whether it works now, and
// Revoke. Anyone else gets the same 404 as for a team that does not exist. Links are made
// through the API; the token of each was shown once there and is not on this page.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppContext } from '../context.ts';
import { notFound } from '../services/errors.ts';
import { listInviteLinks, revokeInviteLink, type ListedInviteLink } from '../services/teams/invite-links.ts';
import { teamAdministeredBy, type Team } from '../services/teams/teams.ts';
import type { User } from '../services/accounts/users.ts';
import { signedIn } from './access.ts';
import { time } from './format.ts';
import { html, type Html } from './html.ts';
import { csrfField, sendPage } from './pages.ts';
import { inviteLinksPath, TEAMS } from './teams.ts';

/** The team of the path, if this user may administer it; the same 404 otherwise, whether or not it exists. */
async function administeredTeam(ctx: AppContext, user: User, teamId: string): Promise<Team> {
  const team = teamId.length <= 200 ? await teamAdministeredBy(ctx.services.stores, teamId, user.id) : undefined;
  if (team === undefined) throw notFound('there is no team with this id among the teams you administer');
  return team;
}

function madeBy(link: ListedInviteLink): Html {
  const maker = link.makerName ?? 'an account since deleted';
  return html`Made by ${maker}${link.clientName !== null ? html` through ${link.clientName}` : ''} on ${time(link.createdAt)}; it expires ${time(link.expiresAt)}.`;
}

/** Whether the link works now, and if not, why (invite-links.ts: isHonoured). */
function standing(link: ListedInviteLink): Html {
  if (link.works) return html`<p class="muted" id="link-state-${link.id}">It works: whoever holds it can join the team as a member.</p>`;
  const why = link.grantRevoked
    ? html`the access of ${link.clientName ?? 'the application'} that made it was revoked, so it will not work again`
    : html`whoever made it is no longer an owner or admin of the team or its organization; it works again if they are made one`;
  return html`<p class="notice bad" id="link-state-${link.id}">It does not work now: ${why}.</p>`;
}

function linkItem(teamId: string, link: ListedInviteLink, csrf: string): Html {
  return html`<li class="invite-link" id="link-${link.id}" data-link="${link.id}">
<p>${madeBy(link)}</p>
${standing(link)}
<form method="post" action="${inviteLinksPath(teamId)}/${encodeURIComponent(link.id)}/revoke">${csrfField(csrf)}<div class="actions"><button type="submit" class="danger">Revoke<span class="visually-hidden"> the link made on ${time(link.createdAt)}</span></button></div></form>
</li>`;
}

function linksPage(team: Team, links: ListedInviteLink[], revoked: boolean, csrf: string): Html {
  return html`<p class="crumbs"><a href="${TEAMS}">Teams and organizations</a></p>
<div class="card"><h1 id="invite-links-title">Invite links of ${team.name}</h1>
${revoked ? html`<p class="flash" role="status" id="flash">The link was revoked: nobody can join through it any more.</p>` : ''}
<p id="how-links-work">Anyone signed in who holds one of these links can join the team as a member until it expires. A link works only while whoever made it is an owner or admin of the team or of its organization and, when an application made it, while that application keeps the access it was given; it never takes back someone who left the team, or was removed, after it was made. Applications make links through the API.</p>
</div>
<section class="card" aria-labelledby="links-title" id="links">
<h2 id="links-title">Links that have not expired</h2>
${links.length === 0
  ? html`<p class="muted" id="no-links">This team has no invite link that has not expired.</p>`
  : html`<ul class="plain stack">${links.map((l) => linkItem(team.id, l, csrf))}</ul>`}
</section>`;
}

const revokedFlag = (request: FastifyRequest) => (request.query as { revoked?: unknown }).revoked === '1';

export async function inviteLinksRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  app.get<{ Params: { teamId: string } }>(`${TEAMS}/:teamId/invite-links`, async (request, reply) => {
    const user = signedIn(request, reply);
    if (!user) return reply;
    const team = await administeredTeam(ctx, user, request.params.teamId);
    const links = await listInviteLinks(ctx.services, team.id);
    reply.header('cache-control', 'no-store');
    return sendPage(reply, request, 200, `Invite links of ${team.name}`, linksPage(team, links, revokedFlag(request), reply.generateCsrf()));
  });

  app.post<{ Params: { teamId: string; linkId: string } }>(`${TEAMS}/:teamId/invite-links/:linkId/revoke`, { preHandler: app.csrfProtection }, async (request, reply) => {
    const user = signedIn(request, reply);
    if (!user) return reply;
    const team = await administeredTeam(ctx, user, request.params.teamId);
    await revokeInviteLink(ctx.services, team.id, request.params.linkId.slice(0, 200), user.id);
    return reply.redirect(`${inviteLinksPath(team.id)}?revoked=1`, 303);
  });
}
