// gatehouse invite-links (docs/rules.md#invite-links): a team's invite links that have not
// expired, and revoking one, as its admins do at /settings/teams/{teamId}/invite-links; a
// revocation is audited as the operator's. A link's token was shown once, to whoever made it,
// and is never printed.
import type { Command } from 'commander';
import { CLI_OPERATOR } from '../services/actors.ts';
import { INVITE_LINK_LIST_MAX, listInviteLinks, revokeInviteLink, type ListedInviteLink } from '../services/teams/invite-links.ts';
import { formatTime } from './output.ts';
import { jsonOption, limitOf, type CliRuntime } from './runtime.ts';

/** A link as the JSON output writes it: snake_case, times in ISO 8601, never its token or hash. */
const linkJson = (l: ListedInviteLink) => ({
  id: l.id,
  team_id: l.teamId,
  works: l.works,
  created_by: l.createdBy,
  maker_name: l.makerName,
  maker_team_role: l.makerTeamRole,
  maker_org_role: l.makerOrgRole,
  grant_id: l.grantId,
  grant_revoked: l.grantRevoked,
  client_name: l.clientName,
  created_at: formatTime(l.createdAt),
  expires_at: formatTime(l.expiresAt),
});

/** Whether it works, and if not why, in a few words. */
const state = (l: ListedInviteLink) => (l.works ? 'works' : l.grantRevoked ? "stopped: its application's grant was revoked" : 'stopped: its maker no longer administers the team');

const line = (l: ListedInviteLink) =>
  `${l.id}  ${state(l)}  made by ${l.makerName ?? 'a deleted account'}${l.clientName !== null ? ` through ${l.clientName}` : ''} ${formatTime(l.createdAt)}, expires ${formatTime(l.expiresAt)}`;

export function registerInviteLinkCommands(program: Command, runtime: CliRuntime): void {
  const links = program.command('invite-links').description("a team's invite links: see who made each and whether it works, and revoke one");
  links
    .command('list')
    .description("list a team's invite links that have not expired, newest first, with who made each, through which application, and whether it works now")
    .requiredOption('--team <teamId>', 'the team')
    .option('--limit <n>', `at most this many (1 to ${INVITE_LINK_LIST_MAX})`, '100')
    .addOption(jsonOption())
    .action(async (opts: { team: string; limit: string; json?: boolean }) => {
      const limit = limitOf(opts.limit, INVITE_LINK_LIST_MAX);
      const rows = await runtime.withServices((s) => listInviteLinks(s, opts.team, limit));
      runtime.emit(!!opts.json, rows.map(linkJson), () => (rows.length === 0 ? `team ${opts.team} has no invite link that has not expired` : rows.map(line)));
    });
  links
    .command('revoke')
    .description('revoke an invite link of a team: nobody joins through it any more (audited as the operator)')
    .argument('<linkId>', 'the link, as `gatehouse invite-links list` names it')
    .requiredOption('--team <teamId>', 'the team of the link')
    .addOption(jsonOption())
    .action(async (linkId: string, opts: { team: string; json?: boolean }) => {
      await runtime.withServices((s) => revokeInviteLink(s, opts.team, linkId, CLI_OPERATOR));
      runtime.emit(!!opts.json, { id: linkId, team_id: opts.team, revoked: true }, () => `revoked invite link ${linkId} of team ${opts.team}`);
    });
}
