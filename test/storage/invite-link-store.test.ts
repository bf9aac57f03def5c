// The contract of InviteLinkStore and of the departures TeamStore keeps for it
// (src/services/teams/store.ts), on both backends: a live link reads back with its team and
// where it stands now (its maker's roles in the team and its organization, whether its grant
// was revoked), expired or revoked it is found no more, it goes with its grant and its team,
// and a team membership that ended is found by when it ended (docs/rules.md#invite-links).
import { describe, expect, it } from 'vitest';
import type { InviteLink, Role } from '../../src/services/teams/store.ts';
import { backends } from '../helpers/backends.ts';
import { grantRecord, seedClient, seedOrganization, seedUser, T0, uniqueId, useServiceStores } from './seed.ts';
import { createOAuthStore, createRetentionStore } from './stores.ts';

describe.each(backends)('invite link store on $name (docs/rules.md#invite-links)', ({ name, available }) => {
  const suite = useServiceStores(name, available);
  const links = () => suite.stores.inviteLinks;
  const teams = () => suite.stores.teams;
  const db = () => suite.database.handle.db;

  /** A team, in the organization when one is given. */
  async function team(organizationId: string | null = null): Promise<string> {
    const id = uniqueId('team');
    expect(await teams().insertTeam({ id, organizationId, name: 'Sales', slug: id.toLowerCase(), bio: '', timeZone: 'UTC', brandColor: '#000000', createdAt: T0, updatedAt: T0 })).toBe(true);
    return id;
  }

  async function member(target: { teamId: string } | { organizationId: string }, userId: string, role: Role): Promise<string> {
    const id = uniqueId('m');
    const teamId = 'teamId' in target ? target.teamId : null;
    const organizationId = 'organizationId' in target ? target.organizationId : null;
    expect(await teams().insertMembership({ id, userId, teamId, organizationId, role, createdAt: T0, updatedAt: T0 })).toBe(true);
    return id;
  }

  async function link(teamId: string, over: Partial<InviteLink> = {}): Promise<InviteLink> {
    const made: InviteLink = { id: uniqueId('l'), tokenHash: uniqueId('hash'), teamId, createdBy: null, grantId: null, expiresAt: T0 + 1000, createdAt: T0, ...over };
    await links().insert(made);
    return made;
  }

  it.skipIf(!available)("findLive: the link with its team and organization names and its maker's roles as they are at each read", async () => {
    const organizationId = await seedOrganization(db());
    const teamId = await team(organizationId);
    const maker = await seedUser(db());
    const made = await link(teamId, { createdBy: maker });
    expect(await links().findLive(made.tokenHash, T0)).toEqual({ ...made, teamName: 'Sales', teamOrgName: 'Org', makerTeamRole: null, makerOrgRole: null, grantRevoked: false });
    const inTeam = await member({ teamId }, maker, 'admin');
    await member({ organizationId }, maker, 'member');
    expect(await links().findLive(made.tokenHash, T0)).toMatchObject({ makerTeamRole: 'admin', makerOrgRole: 'member' });
    await teams().deleteMembership(inTeam);
    expect(await links().findLive(made.tokenHash, T0)).toMatchObject({ makerTeamRole: null, makerOrgRole: 'member' });
    // Another user's memberships say nothing of the maker.
    await member({ teamId }, await seedUser(db()), 'owner');
    expect(await links().findLive(made.tokenHash, T0)).toMatchObject({ makerTeamRole: null });
  });

  it.skipIf(!available)('findLive: none once expired, for an unknown hash; a team in no organization has no organization role; a deleted maker leaves none', async () => {
    const teamId = await team();
    const maker = await seedUser(db());
    await member({ teamId }, maker, 'owner');
    const made = await link(teamId, { createdBy: maker });
    expect(await links().findLive(made.tokenHash, made.expiresAt - 1)).toMatchObject({ teamOrgName: null, makerTeamRole: 'owner', makerOrgRole: null });
    expect(await links().findLive(made.tokenHash, made.expiresAt)).toBeUndefined();
    expect(await links().findLive(uniqueId('hash'), T0)).toBeUndefined();
    await db().deleteFrom('users').where('id', '=', maker).execute();
    expect(await links().findLive(made.tokenHash, T0)).toMatchObject({ createdBy: null, makerTeamRole: null, makerOrgRole: null });
  });

  it.skipIf(!available)('the grant it was made under: grantRevoked once revoked; deleting the grant deletes the link', async () => {
    const teamId = await team();
    const maker = await seedUser(db());
    const oauth = createOAuthStore(db());
    const grant = grantRecord(maker, await seedClient(db(), maker), { teamId });
    await oauth.createGrant(grant);
    const made = await link(teamId, { createdBy: maker, grantId: grant.id });
    expect(await links().findLive(made.tokenHash, T0)).toMatchObject({ grantId: grant.id, grantRevoked: false });
    await suite.stores.clients.revokeGrant(grant.id, T0 + 1);
    expect(await links().findLive(made.tokenHash, T0)).toMatchObject({ grantRevoked: true });
    await db().deleteFrom('grants').where('id', '=', grant.id).execute();
    expect(await links().findLive(made.tokenHash, T0)).toBeUndefined();
  });

  it.skipIf(!available)("listLive: the team's unexpired links, newest first, with the maker's name and the application's; at most `limit`", async () => {
    const teamId = await team();
    const maker = await seedUser(db());
    await member({ teamId }, maker, 'admin');
    const clientId = await seedClient(db(), maker);
    const grant = grantRecord(maker, clientId);
    await createOAuthStore(db()).createGrant(grant);
    const older = await link(teamId, { createdBy: maker, createdAt: T0 - 10 });
    const newer = await link(teamId, { createdBy: maker, grantId: grant.id, createdAt: T0 - 5 });
    await link(teamId, { createdBy: maker, expiresAt: T0 });
    await link(await team(), { createdBy: maker });
    const listed = await links().listLive(teamId, T0, 10);
    expect(listed).toEqual([
      { ...newer, makerName: 'Ada', clientName: 'Calendar Sync', makerTeamRole: 'admin', makerOrgRole: null, grantRevoked: false },
      { ...older, makerName: 'Ada', clientName: null, makerTeamRole: 'admin', makerOrgRole: null, grantRevoked: false },
    ]);
    expect((await links().listLive(teamId, T0, 1)).map((l) => l.id)).toEqual([newer.id]);
    expect(await links().listLive('no-such-team', T0, 10)).toEqual([]);
  });

  it.skipIf(!available)("delete: only the team's own link of that id, once; a duplicate token hash is refused on insert", async () => {
    const [teamId, otherTeam] = [await team(), await team()];
    const made = await link(teamId);
    expect(await links().delete(otherTeam, made.id)).toBe(false);
    expect(await links().delete(teamId, uniqueId('l'))).toBe(false);
    expect(await links().delete(teamId, made.id)).toBe(true);
    expect(await links().delete(teamId, made.id)).toBe(false);
    expect(await links().findLive(made.tokenHash, T0)).toBeUndefined();
    const kept = await link(teamId);
    await expect(links().insert({ ...kept, id: uniqueId('l') })).rejects.toThrow();
    // Deleting the team deletes its links.
    await db().deleteFrom('teams').where('id', '=', teamId).execute();
    expect(await links().findLive(kept.tokenHash, T0)).toBeUndefined();
  });

  it.skipIf(!available)('departures: departedSince finds a membership of that user in that team ended at or after `since`; recording one twice changes nothing; retention deletes them by when they ended', async () => {
    const [teamId, otherTeam] = [await team(), await team()];
    const [userId, otherUser] = [await seedUser(db()), await seedUser(db())];
    const membershipId = uniqueId('m');
    expect(await teams().departedSince(teamId, userId, T0)).toBe(false);
    await teams().recordDeparture({ id: membershipId, teamId, userId }, T0);
    await teams().recordDeparture({ id: membershipId, teamId, userId }, T0 + 50);
    expect(await teams().departedSince(teamId, userId, T0 - 1)).toBe(true);
    expect(await teams().departedSince(teamId, userId, T0)).toBe(true);
    expect(await teams().departedSince(teamId, userId, T0 + 1)).toBe(false);
    expect(await teams().departedSince(otherTeam, userId, T0 - 1)).toBe(false);
    expect(await teams().departedSince(teamId, otherUser, T0 - 1)).toBe(false);
    // A later departure of the same user (after joining again) is found too.
    await teams().recordDeparture({ id: uniqueId('m'), teamId, userId }, T0 + 100);
    expect(await teams().departedSince(teamId, userId, T0 + 1)).toBe(true);

    const retention = createRetentionStore(db());
    expect(await retention.deleteBatch('teamDepartures', T0 + 1, 500)).toBe(1);
    expect(await teams().departedSince(teamId, userId, T0 - 1)).toBe(true);
    expect(await teams().departedSince(teamId, userId, T0 + 101)).toBe(false);
    await retention.deleteBatch('teamDepartures', T0 + 101, 500);
    expect(await teams().departedSince(teamId, userId, T0 - 1)).toBe(false);
  });
});
