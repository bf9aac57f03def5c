// gatehouse orgs create, teams create, members add (docs/rules.md#cli): set up who belongs where,
// through the same services as the API.
import type { Command } from 'commander';
import { addMember, createOrganization, createTeam } from '../services/teams/teams.ts';
import { requireUserByEmail } from '../services/accounts/users.ts';
import { CliError } from './output.ts';
import { jsonOption, type CliRuntime } from './runtime.ts';

export function registerPlatformCommands(program: Command, runtime: CliRuntime): void {
  program
    .command('orgs')
    .description('manage organizations')
    .command('create')
    .description('create an organization; its owner becomes an owner member')
    .requiredOption('--name <name>', 'organization name')
    .requiredOption('--owner <email>', 'the user who owns it')
    .addOption(jsonOption())
    .action(async (opts: { name: string; owner: string; json?: boolean }) => {
      const org = await runtime.withServices(async (s) => createOrganization(s, { name: opts.name, ownerId: (await requireUserByEmail(s, opts.owner)).id }));
      runtime.emit(!!opts.json, { id: org.id, name: org.name, slug: org.slug, owner: opts.owner.toLowerCase() }, () => `created organization ${org.name} (${org.id}), owned by ${opts.owner}`);
    });

  program
    .command('teams')
    .description('manage teams')
    .command('create')
    .description('create a team, optionally inside an organization; its owner becomes an owner member')
    .requiredOption('--name <name>', 'team name')
    .requiredOption('--owner <email>', 'the user who owns it')
    .option('--org <orgId>', 'the organization the team belongs to')
    .addOption(jsonOption())
    .action(async (opts: { name: string; owner: string; org?: string; json?: boolean }) => {
      const team = await runtime.withServices(async (s) =>
        createTeam(s, { name: opts.name, ownerId: (await requireUserByEmail(s, opts.owner)).id, organizationId: opts.org ?? null }),
      );
      runtime.emit(!!opts.json, { id: team.id, name: team.name, slug: team.slug, organization_id: team.organizationId, owner: opts.owner.toLowerCase() }, () =>
        `created team ${team.name} (${team.id})${team.organizationId ? ` in organization ${team.organizationId}` : ''}, owned by ${opts.owner}`,
      );
    });

  program
    .command('members')
    .description('manage team and organization memberships')
    .command('add')
    .description('add a user to a team or an organization with a role')
    .option('--team <teamId>', 'the team')
    .option('--org <orgId>', 'the organization')
    .requiredOption('--user <email>', 'the user to add')
    .requiredOption('--role <role>', 'member, admin or owner')
    .addOption(jsonOption())
    .action(async (opts: { team?: string; org?: string; user: string; role: string; json?: boolean }) => {
      if ((opts.team === undefined) === (opts.org === undefined)) throw new CliError('give exactly one of --team ID and --org ID');
      const target = opts.team !== undefined ? { teamId: opts.team } : { organizationId: opts.org! };
      const m = await runtime.withServices(async (s) => addMember(s, target, (await requireUserByEmail(s, opts.user)).id, opts.role));
      runtime.emit(!!opts.json, { id: m.id, user_id: m.userId, team_id: m.teamId, organization_id: m.organizationId, role: m.role, user: opts.user.toLowerCase() }, () =>
        `added ${opts.user} to ${opts.team !== undefined ? `team ${opts.team}` : `organization ${opts.org}`} as ${m.role}`,
      );
    });
}
