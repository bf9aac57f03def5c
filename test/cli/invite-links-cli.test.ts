// gatehouse invite-links list and revoke (docs/rules.md#invite-links): the operator sees a
// team's links that have not expired, who made each, through which application and whether it
// works now, never a token; revoking one ends it, audited under the operator; --json, and each
// refusal one line. On both databases.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashToken } from '../../src/oauth/token-format.ts';
import { createUser } from '../../src/services/accounts/users.ts';
import { createInviteLink, findInviteLink } from '../../src/services/teams/invite-links.ts';
import { addMember, createTeam } from '../../src/services/teams/teams.ts';
import { createServiceContext } from '../../src/storage/stores/index.ts';
import { testServiceOptions } from '../helpers/password-hashing.ts';
import { backends, createTestDatabase, type TestDatabase } from '../helpers/backends.ts';
import { expectOneLineRefusal, runCli, type CliResult } from '../helpers/cli.ts';
import { auditEvents, storesOver } from '../helpers/stores.ts';

function ok(result: CliResult): string {
  expect(result.code, result.stderr).toBe(0);
  expect(result.stderr).toBe('');
  return result.stdout;
}

describe.each(backends)('gatehouse invite-links on $name', { timeout: 120_000 }, ({ name, available }) => {
  let database: TestDatabase;
  const gatehouse = (...args: string[]) => runCli(args, { env: { ...database.env, DATABASE_URL: database.url } });
  const json = async (...args: string[]) => JSON.parse(ok(await gatehouse(...args, '--json')));
  let services: ReturnType<typeof createServiceContext>;
  let team: { id: string };
  let admin: { id: string; email: string };
  let links: Array<{ id: string; token: string }>;

  beforeAll(async () => {
    if (!available) return;
    database = await createTestDatabase(name);
    // The owner's link a second older than the admin's, so that newest first has one order.
    let offset = -1000;
    services = createServiceContext(database.handle.db, () => Date.now() + offset, testServiceOptions);
    const owner = await createUser(services, { email: 'links-owner@example.com', name: 'Links Owner', password: 'owner-password' });
    admin = await createUser(services, { email: 'links-admin@example.com', name: 'Links Admin', password: 'admin-password' });
    team = await createTeam(services, { name: 'Sales', ownerId: owner.id });
    const adminship = await addMember(services, { teamId: team.id }, admin.id, 'admin');
    links = [];
    for (const createdBy of [owner.id, admin.id]) {
      links.push(await createInviteLink(services, { teamId: team.id, createdBy, grantId: null }, 'https://gatehouse.example'));
      offset = 0;
    }
    // The admin is demoted: their link stops working, and the list says so.
    await services.stores.teams.setMembershipRole(adminship.id, 'member', Date.now());
  });
  afterAll(async () => database?.drop());

  it.skipIf(!available)('list shows the live links newest first, who made each and whether it works, never a token (--json and text)', async () => {
    const [byOwner, byAdmin] = links;
    const listed = await json('invite-links', 'list', '--team', team.id);
    expect(listed).toEqual([
      expect.objectContaining({ id: byAdmin!.id, team_id: team.id, works: false, created_by: admin.id, maker_name: 'Links Admin', maker_team_role: 'member', grant_id: null, client_name: null }),
      expect.objectContaining({ id: byOwner!.id, works: true, maker_name: 'Links Owner', maker_team_role: 'owner', created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/), expires_at: expect.any(String) }),
    ]);
    const text = ok(await gatehouse('invite-links', 'list', '--team', team.id));
    expect(text.trimEnd().split('\n')).toEqual([
      expect.stringMatching(new RegExp(`^${byAdmin!.id} {2}stopped: its maker no longer administers the team {2}made by Links Admin \\d{4}-.+, expires .+$`)),
      expect.stringMatching(new RegExp(`^${byOwner!.id} {2}works {2}made by Links Owner `)),
    ]);
    for (const output of [JSON.stringify(listed), text]) {
      for (const link of links) {
        expect(output).not.toContain(link.token);
        expect(output).not.toContain(hashToken(link.token));
      }
    }
  });

  it.skipIf(!available)('revoke ends the link, says so, and the audit log shows it under the operator', async () => {
    const [byOwner] = links;
    const newcomer = { id: (await createUser(services, { email: 'links-newcomer@example.com', name: 'Newcomer', password: 'newcomer-password' })).id, email: 'links-newcomer@example.com' };
    expect(await findInviteLink(services, newcomer, byOwner!.token)).toMatchObject({ id: byOwner!.id });
    expect(ok(await gatehouse('invite-links', 'revoke', byOwner!.id, '--team', team.id))).toBe(`revoked invite link ${byOwner!.id} of team ${team.id}\n`);
    await expect(findInviteLink(services, newcomer, byOwner!.token)).rejects.toThrow(/this invite link does not work/);
    expect((await json('invite-links', 'list', '--team', team.id)).map((l: { id: string }) => l.id)).toEqual([links[1]!.id]);
    expect(await json('invite-links', 'revoke', links[1]!.id, '--team', team.id)).toEqual({ id: links[1]!.id, team_id: team.id, revoked: true });
    expect(ok(await gatehouse('invite-links', 'list', '--team', team.id))).toBe(`team ${team.id} has no invite link that has not expired\n`);
    const events = await auditEvents(storesOver(database.handle.db), { type: 'invite_link.revoked' });
    expect(events.map((e) => [e.actorId, e.data])).toEqual([
      ['cli:operator', { teamId: team.id, linkId: byOwner!.id }],
      ['cli:operator', { teamId: team.id, linkId: links[1]!.id }],
    ]);
  });

  it.skipIf(!available)('refuses bad input with one line and exit code 1', async () => {
    const cases: Array<[string[], RegExp]> = [
      [['invite-links', 'list'], /^gatehouse: required option '--team <teamId>' not specified$/],
      [['invite-links', 'list', '--team', 'noSuchTeam'], /^gatehouse: no team noSuchTeam$/],
      [['invite-links', 'list', '--team', team.id, '--limit', '0'], /^gatehouse: --limit must be a whole number from 1 to 500$/],
      [['invite-links', 'revoke', links[0]!.id, '--team', team.id], new RegExp(`^gatehouse: team ${team.id} has no invite link ${links[0]!.id}: it expired, or was revoked already$`)],
      [['invite-links', 'revoke', 'nope'], /^gatehouse: required option '--team <teamId>' not specified$/],
    ];
    for (const [args, message] of cases) expectOneLineRefusal(await gatehouse(...args), message);
  });
});
