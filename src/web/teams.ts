// /settings/teams (docs/rules.md#membership-invitations): the invitations waiting for the user, each with Accept
// and Decline, and the teams and organizations the user belongs to, each with Leave (not
// for its last owner), which asks for confirmation on a page of its own, and for a team the
// user administers, its invite links (invite-links.ts). Every form carries the CSRF token and
// answers with a redirect.
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.ts';
import { ServiceError } from '../services/errors.ts';
import { acceptInvitation, declineInvitation, listInvitationsFor } from '../services/teams/invitations.ts';
import { findInviteLink, JOIN_PATH, joinByInviteLink } from '../services/teams/invite-links.ts';
import type { InviteLinkForPage } from '../services/teams/store.ts';
import type { InvitationForUser, MembershipOfUser } from '../services/teams/store.ts';
import { isAdmin, leave, listMembershipsOfUser } from '../services/teams/teams.ts';
import { signedIn } from './access.ts';
import { fullStop, time } from './format.ts';
import { html, type Html } from './html.ts';
import { csrfField, sendErrorPage, sendPage } from './pages.ts';

/** docs/integrating.md#enterprise-managed-agents: where an organization's owners manage its identity providers (identity-providers.ts). */
export const identityProvidersPath = (organizationId: string) => `/settings/organizations/${encodeURIComponent(organizationId)}/identity-providers`;

export const TEAMS = '/settings/teams';

/** docs/rules.md#invite-links: where a team's admins list and revoke its invite links (invite-links.ts). */
export const inviteLinksPath = (teamId: string) => `${TEAMS}/${encodeURIComponent(teamId)}/invite-links`;

type Membership = MembershipOfUser;
type Kind = 'team' | 'organization';

const kindOf = (row: { teamId: string | null }): Kind => (row.teamId !== null ? 'team' : 'organization');
const roleWords = { member: 'member', admin: 'admin', owner: 'owner' } as const;

/** What accepting shares, in plain words, so that consent is informed. */
const consequences: Record<Kind, string> = {
  team: 'If you accept, you become a host of the team’s bookings and see its event types, schedules and bookings; you can leave at any time.',
  organization:
    'If you accept, the organization’s admins can see and change your profile, event types, schedules and bookings; you can leave at any time.',
};

function place(kind: Kind, orgName: string | null): Html {
  return html`${kind === 'team' ? 'Team' : 'Organization'}${orgName !== null ? html` in <strong>${orgName}</strong>` : ''}`;
}

function invitationItem(i: InvitationForUser, csrf: string): Html {
  const kind = kindOf(i);
  const action = `${TEAMS}/invitations/${encodeURIComponent(i.id)}`;
  return html`<li class="invitation" data-invitation="${i.id}">
<h3 id="invitation-${i.id}">${i.targetName}</h3>
<p>${place(kind, i.teamOrgName)}${fullStop(i.teamOrgName)} You are invited as <strong>${roleWords[i.role]}</strong>${i.inviterName !== null ? html` by ${i.inviterName}` : ''}, on ${time(i.createdAt)}.</p>
<p class="muted">${consequences[kind]}</p>
<div class="actions">
<form method="post" action="${action}/accept">${csrfField(csrf)}<button type="submit">Accept<span class="visually-hidden"> the invitation to ${i.targetName}</span></button></form>
<form method="post" action="${action}/decline">${csrfField(csrf)}<button type="submit" class="secondary">Decline<span class="visually-hidden"> the invitation to ${i.targetName}</span></button></form>
</div>
</li>`;
}

function membershipItem(m: Membership, refused: boolean): Html {
  const kind = kindOf(m);
  const lastOwner = m.role === 'owner' && m.owners <= 1;
  // Leaving asks first, on a page of its own (leavePage), so one stray click ends nothing.
  const leaveForm = html`<div class="actions"><a class="button danger" href="${leavePath(m.id)}">Leave<span class="visually-hidden"> ${m.targetName}</span></a></div>`;
  return html`<li class="membership" data-membership="${m.id}">
<h3 id="membership-${m.id}">${m.targetName}</h3>
<p>${place(kind, m.teamOrgName)}${fullStop(m.teamOrgName)} Your role: <strong>${roleWords[m.role]}</strong>, since ${time(m.createdAt)}.</p>
${m.teamId !== null && isAdmin(m.role)
  ? html`<p><a href="${inviteLinksPath(m.teamId)}">Invite links<span class="visually-hidden"> of ${m.targetName}</span></a>: see and revoke the links that let people join.</p>`
  : ''}
${m.organizationId !== null && m.role === 'owner'
  ? html`<p><a href="${identityProvidersPath(m.organizationId)}">Identity providers<span class="visually-hidden"> of ${m.targetName}</span></a>: let your organization’s agents in for its members without a consent page, and see who got access.</p>`
  : ''}
${refused
  ? html`<p class="error" role="alert" id="refused">You are the last owner of ${m.targetName}, so you cannot leave it. Make another member an owner first.</p>`
  : lastOwner
    ? html`<p class="muted" id="last-owner-${m.id}">You are its only owner, so you cannot leave it: make another member an owner first.</p>`
    : leaveForm}
</li>`;
}

const leavePath = (membershipId: string) => `${TEAMS}/memberships/${encodeURIComponent(membershipId)}/leave`;

/** The confirmation before leaving: what the user loses, Leave and Cancel. */
function leavePage(m: Membership, csrf: string): Html {
  const kind = kindOf(m);
  const loses =
    kind === 'team'
      ? 'You stop being a host of its bookings, and applications you authorized lose their access to it through you.'
      : 'Its admins can no longer see or change your profile, event types, schedules and bookings, and applications you authorized lose their access to it through you.';
  return html`<p class="crumbs"><a href="${TEAMS}">Teams and organizations</a></p>
<div class="card"><h1 id="leave-title">Leave ${m.targetName}?</h1>
<p>${place(kind, m.teamOrgName)}. Your role: <strong>${roleWords[m.role]}</strong>.</p>
<p class="notice bad" id="leave-consequence">${loses} To come back you need a new invitation.</p>
<form method="post" action="${leavePath(m.id)}">${csrfField(csrf)}
<div class="actions"><button type="submit" class="danger">Leave ${m.targetName}</button><a class="button secondary" href="${TEAMS}">Cancel</a></div></form>
</div>`;
}

/**
 * An invite link's page (docs/rules.md#invite-links): the team, what joining shares, and
 * Join. The token goes on in the form's body, never into another URL.
 */
function joinPage(link: InviteLinkForPage, token: string, csrf: string): Html {
  return html`<div class="card"><h1 id="join-title">Join ${link.teamName}?</h1>
<p>${place('team', link.teamOrgName)}${fullStop(link.teamOrgName)} This link makes you a <strong>member</strong> of the team. It works until ${time(link.expiresAt)}.</p>
<p class="muted" id="join-consequence">${consequences.team}</p>
<form method="post" action="${JOIN_PATH}">${csrfField(csrf)}<input type="hidden" name="token" value="${token}">
<div class="actions"><button type="submit">Join ${link.teamName}</button><a class="button secondary" href="${TEAMS}">Not now</a></div></form>
</div>`;
}

/** The confirmation a redirect asks for; names only what this user belongs to. */
function flash(query: Record<string, unknown>, memberships: Membership[]): Html | '' {
  const message = (text: Html | string) => html`<p class="flash" role="status" id="flash">${text}</p>`;
  if (typeof query.accepted === 'string') {
    const joined = memberships.find((m) => m.id === query.accepted);
    if (joined) return message(html`You joined <strong>${joined.targetName}</strong>.`);
  }
  if (query.declined === '1') return message('You declined the invitation. Nothing of your account was shared.');
  if (query.left === 'team' || query.left === 'organization') return message(`You left the ${query.left}.`);
  return '';
}

/** The page: the confirmation, the invitations waiting, then the user's memberships. */
function teamsPage(query: Record<string, unknown>, invitations: InvitationForUser[], memberships: Membership[], csrf: string): Html {
  return html`<div class="card"><h1>Teams and organizations</h1>
${flash(query, memberships)}
<p id="how-you-join">Teams and organizations can only invite you: an invitation waits here for your answer, and until you accept it they see nothing of your account. A platform operator can also add you directly, without asking you; every team and organization you belong to is listed below however you joined, and you can leave any of them unless you are its last owner.</p>
</div>
<section class="card" aria-labelledby="invitations-title" id="invitations">
<h2 id="invitations-title">Invitations</h2>
${invitations.length === 0
  ? html`<p class="muted" id="no-invitations">No invitations are waiting for you.</p>`
  : html`<ul class="plain stack">${invitations.map((i) => invitationItem(i, csrf))}</ul>`}
</section>
<section class="card" aria-labelledby="memberships-title" id="memberships">
<h2 id="memberships-title">Your teams and organizations</h2>
${memberships.length === 0
  ? html`<p class="muted" id="no-memberships">You are not a member of any team or organization.</p>`
  : html`<ul class="plain stack">${memberships.map((m) => membershipItem(m, query.refused === m.id))}</ul>`}
</section>`;
}

export async function teamsRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  app.get(TEAMS, async (request, reply) => {
    const user = signedIn(request, reply);
    if (!user) return reply;
    const [invitations, memberships] = await Promise.all([listInvitationsFor(ctx.services, user), listMembershipsOfUser(ctx.services, user.id)]);
    const csrf = reply.generateCsrf();
    reply.header('cache-control', 'no-store');
    return sendPage(reply, request, 200, 'Teams', teamsPage(request.query as Record<string, unknown>, invitations, memberships, csrf));
  });

  // An invite link: someone not signed in logs in first and comes back here (signedIn).
  app.get<{ Querystring: { token?: unknown } }>(JOIN_PATH, async (request, reply) => {
    const user = signedIn(request, reply);
    if (!user) return reply;
    const token = request.query.token;
    const link = await findInviteLink(ctx.services, user, token);
    reply.header('cache-control', 'no-store');
    return sendPage(reply, request, 200, `Join ${link.teamName}`, joinPage(link, token as string, reply.generateCsrf()));
  });

  app.post<{ Body: { token?: unknown } }>(JOIN_PATH, { preHandler: app.csrfProtection }, async (request, reply) => {
    const user = signedIn(request, reply);
    if (!user) return reply;
    const membership = await joinByInviteLink(ctx.services, user, request.body?.token);
    return reply.redirect(`${TEAMS}?accepted=${encodeURIComponent(membership.id)}`, 303);
  });

  app.post<{ Params: { id: string } }>(`${TEAMS}/invitations/:id/accept`, { preHandler: app.csrfProtection }, async (request, reply) => {
    const user = signedIn(request, reply);
    if (!user) return reply;
    const membership = await acceptInvitation(ctx.services, user, request.params.id.slice(0, 200));
    return reply.redirect(`${TEAMS}?accepted=${encodeURIComponent(membership.id)}`, 303);
  });

  app.post<{ Params: { id: string } }>(`${TEAMS}/invitations/:id/decline`, { preHandler: app.csrfProtection }, async (request, reply) => {
    const user = signedIn(request, reply);
    if (!user) return reply;
    await declineInvitation(ctx.services, user, request.params.id.slice(0, 200));
    return reply.redirect(`${TEAMS}?declined=1`, 303);
  });

  app.get<{ Params: { id: string } }>(`${TEAMS}/memberships/:id/leave`, async (request, reply) => {
    const user = signedIn(request, reply);
    if (!user) return reply;
    const id = request.params.id.slice(0, 200);
    const membership = (await listMembershipsOfUser(ctx.services, user.id)).find((m) => m.id === id);
    if (membership === undefined) return sendErrorPage(reply, request, 404, 'Not found', 'You are not a member there: you may have left already.');
    // The last owner cannot leave: the teams page says so beside the membership.
    if (membership.role === 'owner' && membership.owners <= 1) return reply.redirect(`${TEAMS}?refused=${encodeURIComponent(id)}#refused`, 303);
    reply.header('cache-control', 'no-store');
    return sendPage(reply, request, 200, `Leave ${membership.targetName}`, leavePage(membership, reply.generateCsrf()));
  });

  app.post<{ Params: { id: string } }>(`${TEAMS}/memberships/:id/leave`, { preHandler: app.csrfProtection }, async (request, reply) => {
    const user = signedIn(request, reply);
    if (!user) return reply;
    const id = request.params.id.slice(0, 200);
    try {
      const left = await leave(ctx.services, user.id, id);
      return reply.redirect(`${TEAMS}?left=${kindOf(left)}`, 303);
    } catch (error) {
      // The last owner stays: the page says why, next to that membership.
      if (error instanceof ServiceError && error.kind === 'conflict') return reply.redirect(`${TEAMS}?refused=${encodeURIComponent(id)}#refused`, 303);
      throw error;
    }
  });
}
