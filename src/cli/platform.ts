// gatehouse orgs, teams and members (docs/rules.md#cli): set up who belongs where, and find it
// again, through the same services as the API. The lists are for an operator who lost an id
// printed once; members remove keeps the last owner, as leaving does (docs/rules.md#membership-rules).
import type { Command } from 'commander';
import { CLI_OPERATOR } from '../services/actors.ts';
import {
  addMember,
  createOrganization,
  createTeam,
  LIST_LIMIT_MAX,
  listMembers,
  listOrganizations,
  listTeams,
  removeMemberByEmail,
  targetName,
  type Member,
  type MembershipTarget,
  type OrganizationSummary,
  type TeamSummary,
} from '../services/teams/teams.ts';
import { requireUserByEmail } from '../services/accounts/users.ts';
import { CliError, formatTime } from './output.ts';
import { jsonOption, limitOf, type CliRuntime } from './runtime.ts';

interface TargetOptions {
  team?: string;
  org?: string;
}

/** Exactly one of --team and --org, as the target of a membership command. */
function targetOf(opts: TargetOptions): MembershipTarget {
  if ((opts.team === undefined) === (opts.org === undefined)) throw new CliError('give exactly one of --team ID and --org ID');
  return opts.team !== undefined ? { teamId: opts.team } : { organizationId: opts.org! };
}


const limitOption = ['--limit <n>', `at most this many, oldest first (1 to ${LIST_LIMIT_MAX})`, '100'] as const;

/** The lines of a list, and a last one when the list may go on past --limit. */
function listed<T>(rows: T[], limit: number, line: (row: T) => string, none: string): string[] {
  if (rows.length === 0) return [none];
  const more = rows.length === limit ? [`(the first ${limit}; --limit ${Math.min(limit * 10, LIST_LIMIT_MAX)} shows more)`] : [];
  return [...rows.map(line), ...more];
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

const organizationJson = (o: OrganizationSummary) => ({ id: o.id, name: o.name, slug: o.slug, members: o.members, teams: o.teams, created_at: formatTime(o.createdAt) });
const teamJson = (t: TeamSummary) => ({
  id: t.id,
  name: t.name,
  slug: t.slug,
  organization_id: t.organizationId,
  organization_name: t.organizationName,
  members: t.members,
  created_at: formatTime(t.createdAt),
});
const memberJson = (m: Member) => ({
  id: m.id,
  user_id: m.userId,
  email: m.email,
  name: m.name,
  role: m.role,
  team_id: m.teamId,
  organization_id: m.organizationId,
  created_at: formatTime(m.createdAt),
});

export function registerPlatformCommands(program: Command, runtime: CliRuntime): void {
  const orgs = program.command('orgs').description('manage organizations');
  orgs
    .command('create')
    .description('create an organization; its owner becomes an owner member')
    .requiredOption('--name <name>', 'organization name')
    .requiredOption('--owner <email>', 'the user who owns it')
    .addOption(jsonOption())
    .action(async (opts: { name: string; owner: string; json?: boolean }) => {
      const org = await runtime.withServices(async (s) => createOrganization(s, { name: opts.name, ownerId: (await requireUserByEmail(s, opts.owner)).id }, { actorId: CLI_OPERATOR }));
      runtime.emit(!!opts.json, { id: org.id, name: org.name, slug: org.slug, owner: opts.owner.toLowerCase() }, () => `created organization ${org.name} (${org.id}), owned by ${opts.owner}`);
    });
  orgs
    .command('list')
    .description('list the organizations, oldest first, with their ids and how many members and teams each has')
    .option(...limitOption)
    .addOption(jsonOption())
    .action(async (opts: { limit: string; json?: boolean }) => {
      const limit = limitOf(opts.limit, LIST_LIMIT_MAX);
      const rows = await runtime.withServices((s) => listOrganizations(s, limit));
      runtime.emit(!!opts.json, rows.map(organizationJson), () =>
        listed(rows, limit, (o) => `${o.id}  ${o.name}  slug ${o.slug}  (${plural(o.members, 'member')}, ${plural(o.teams, 'team')})`, 'no organizations yet: `gatehouse orgs create --name NAME --owner EMAIL` makes one'),
      );
    });

  const teams = program.command('teams').description('manage teams');
  teams
    .command('create')
    .description('create a team, optionally inside an organization; its owner becomes an owner member')
    .requiredOption('--name <name>', 'team name')
    .requiredOption('--owner <email>', 'the user who owns it')
    .option('--org <orgId>', 'the organization the team belongs to')
    .addOption(jsonOption())
    .action(async (opts: { name: string; owner: string; org?: string; json?: boolean }) => {
      const team = await runtime.withServices(async (s) =>
        createTeam(s, { name: opts.name, ownerId: (await requireUserByEmail(s, opts.owner)).id, organizationId: opts.org ?? null }, { actorId: CLI_OPERATOR }),
      );
      runtime.emit(!!opts.json, { id: team.id, name: team.name, slug: team.slug, organization_id: team.organizationId, owner: opts.owner.toLowerCase() }, () =>
        `created team ${team.name} (${team.id})${team.organizationId ? ` in organization ${team.organizationId}` : ''}, owned by ${opts.owner}`,
      );
    });
  teams
    .command('list')
    .description('list the teams, oldest first, with their ids, organizations and how many members each has')
    .option('--org <orgId>', "only this organization's teams")
    .option(...limitOption)
    .addOption(jsonOption())
    .action(async (opts: { org?: string; limit: string; json?: boolean }) => {
      const limit = limitOf(opts.limit, LIST_LIMIT_MAX);
      const rows = await runtime.withServices((s) => listTeams(s, { organizationId: opts.org }, limit));
      const where = (t: TeamSummary) => (t.organizationId === null ? 'no organization' : `organization ${t.organizationName} ${t.organizationId}`);
      runtime.emit(!!opts.json, rows.map(teamJson), () =>
        listed(rows, limit, (t) => `${t.id}  ${t.name}  slug ${t.slug}  (${plural(t.members, 'member')}; ${where(t)})`, opts.org === undefined ? 'no teams yet: `gatehouse teams create --name NAME --owner EMAIL` makes one' : `organization ${opts.org} has no teams`),
      );
    });

  const members = program.command('members').description('manage team and organization memberships');
  members
    .command('add')
    .description('add a user to a team or an organization with a role')
    .option('--team <teamId>', 'the team')
    .option('--org <orgId>', 'the organization')
    .requiredOption('--user <email>', 'the user to add')
    .requiredOption('--role <role>', 'member, admin or owner')
    .addOption(jsonOption())
    .action(async (opts: TargetOptions & { user: string; role: string; json?: boolean }) => {
      const target = targetOf(opts);
      const m = await runtime.withServices(async (s) => addMember(s, target, (await requireUserByEmail(s, opts.user)).id, opts.role, CLI_OPERATOR));
      runtime.emit(!!opts.json, { id: m.id, user_id: m.userId, team_id: m.teamId, organization_id: m.organizationId, role: m.role, user: opts.user.toLowerCase() }, () =>
        `added ${opts.user} to ${targetName(target)} as ${m.role}`,
      );
    });
  members
    .command('list')
    .description("list a team's or an organization's members, oldest first, with their roles (invitations not yet accepted are not listed)")
    .option('--team <teamId>', 'the team')
    .option('--org <orgId>', 'the organization')
    .option(...limitOption)
    .addOption(jsonOption())
    .action(async (opts: TargetOptions & { limit: string; json?: boolean }) => {
      const target = targetOf(opts);
      const limit = limitOf(opts.limit, LIST_LIMIT_MAX);
      const rows = await runtime.withServices((s) => listMembers(s, target, limit));
      const width = Math.max(0, ...rows.map((m) => m.email.length));
      runtime.emit(!!opts.json, rows.map(memberJson), () =>
        listed(rows, limit, (m) => `${m.email.padEnd(width)}  ${m.role.padEnd(6)}  ${m.name}  (membership ${m.id}, since ${formatTime(m.createdAt)})`, `${targetName(target)} has no members`),
      );
    });
  members
    .command('remove')
    .description('remove a user from a team or an organization (never its last owner)')
    .option('--team <teamId>', 'the team')
    .option('--org <orgId>', 'the organization')
    .requiredOption('--user <email>', 'the member to remove')
    .addOption(jsonOption())
    .action(async (opts: TargetOptions & { user: string; json?: boolean }) => {
      const target = targetOf(opts);
      const m = await runtime.withServices((s) => removeMemberByEmail(s, target, opts.user, CLI_OPERATOR));
      const user = opts.user.trim().toLowerCase();
      runtime.emit(!!opts.json, { id: m.id, user_id: m.userId, user, team_id: m.teamId, organization_id: m.organizationId, role: m.role, removed: true }, () =>
        `removed ${user} (${m.role}) from ${targetName(target)}`,
      );
    });
}
