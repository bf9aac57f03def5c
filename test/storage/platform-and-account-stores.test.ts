// The contracts of the remaining /v2 API stores (api/stores/*.ts: memberships, profiles,
// routing forms, webhooks, workflows, connected apps, verified resources) and of the
// verified-resource and audit stores of the services, on both backends: what a missing row
// answers, that a write reads back, duplicates, ordering, and transaction rollback.
import { describe, expect, it } from 'vitest';
import type { ConnectedApp } from '../../src/platform/connected-apps/store.ts';
import type { RoutingForm } from '../../src/platform/routing-forms/store.ts';
import type { Webhook } from '../../src/services/webhooks/subscriptions.ts';
import type { Workflow } from '../../src/platform/workflows/store.ts';
import type { VerifiedResource } from '../../src/services/accounts/store.ts';
import { backends } from '../helpers/backends.ts';
import { seedClient, seedOrganization, seedUser, T0, uniqueId, useServiceStores } from './seed.ts';

describe.each(backends)('/v2 platform, verified-resource and audit stores on $name', ({ name, available }) => {
  const suite = useServiceStores(name, available);

  const user = () => seedUser(suite.database.handle.db);

  const organization = () => seedOrganization(suite.database.handle.db);

  async function team(organizationId: string | null = null): Promise<string> {
    const id = uniqueId('t');
    expect(await suite.stores.teams.insertTeam({ id, organizationId, name: 'T', slug: id.toLowerCase(), bio: '', timeZone: 'UTC', brandColor: '#292929', createdAt: T0, updatedAt: T0 })).toBe(true);
    return id;
  }

  async function membership(target: { teamId: string } | { organizationId: string }, userId: string, createdAt = T0): Promise<string> {
    const id = uniqueId('m');
    const teamId = 'teamId' in target ? target.teamId : null;
    const organizationId = 'organizationId' in target ? target.organizationId : null;
    expect(await suite.stores.teams.insertMembership({ id, userId, teamId, organizationId, role: 'member', createdAt, updatedAt: createdAt })).toBe(true);
    return id;
  }

  async function invitation(teamId: string, invitedBy: string, createdAt = T0): Promise<string> {
    const id = uniqueId('i');
    expect(
      await suite.stores.invitations.insert({ id, teamId, organizationId: null, email: `${id}@example.com`.toLowerCase(), userId: null, role: 'member', invitedBy, createdAt, updatedAt: createdAt }),
    ).toBe(true);
    return id;
  }

  // MembershipStore

  it.skipIf(!available)("memberships.listRoster: the team's members and invitations in the order they were added, paged", async () => {
    const t = await team();
    const a = await user();
    const m1 = await membership({ teamId: t }, a, T0 + 1);
    const i1 = await invitation(t, a, T0 + 2);
    const m2 = await membership({ teamId: t }, await user(), T0 + 3);
    await membership({ teamId: await team() }, a);
    const roster = await suite.stores.api.memberships.listRoster({ teamId: t }, 10, 0);
    expect(roster.map((r) => [r.state, r.id])).toEqual([
      ['accepted', m1],
      ['invited', i1],
      ['accepted', m2],
    ]);
    expect((await suite.stores.api.memberships.listRoster({ teamId: t }, 1, 1)).map((r) => r.id)).toEqual([i1]);
  });

  it.skipIf(!available)("memberships.findMember: another target's membership, an invitation or an unknown id is undefined", async () => {
    const t = await team();
    const u = await user();
    const m = await membership({ teamId: t }, u);
    const i = await invitation(t, u);
    expect(await suite.stores.api.memberships.findMember({ teamId: t }, m)).toMatchObject({ id: m, userId: u, teamId: t, role: 'member', user: { email: `${u}@example.com`, name: 'Ada', username: u } });
    expect(await suite.stores.api.memberships.findMember({ teamId: await team() }, m)).toBeUndefined();
    expect(await suite.stores.api.memberships.findMember({ teamId: t }, i)).toBeUndefined();
    expect(await suite.stores.api.memberships.findMember({ teamId: t }, 'no-such-membership')).toBeUndefined();
  });

  it.skipIf(!available)('memberships.findInvitation, setInvitationRole and deleteInvitation: a membership or unknown id is undefined; unknown ids change nothing', async () => {
    const t = await team();
    const u = await user();
    const m = await membership({ teamId: t }, u);
    const i = await invitation(t, u);
    expect(await suite.stores.api.memberships.findInvitation({ teamId: t }, i)).toMatchObject({ id: i, teamId: t, role: 'member', invitedUserId: null });
    expect(await suite.stores.api.memberships.findInvitation({ teamId: t }, m)).toBeUndefined();
    expect(await suite.stores.api.memberships.findInvitation({ teamId: await team() }, i)).toBeUndefined();
    await suite.stores.api.memberships.setInvitationRole(i, 'admin', T0 + 1);
    await suite.stores.api.memberships.setInvitationRole('no-such-invitation', 'admin', T0 + 1);
    expect(await suite.stores.api.memberships.findInvitation({ teamId: t }, i)).toMatchObject({ role: 'admin', updatedAt: T0 + 1 });
    await suite.stores.api.memberships.deleteInvitation('no-such-invitation');
    await suite.stores.api.memberships.deleteInvitation(i);
    expect(await suite.stores.api.memberships.findInvitation({ teamId: t }, i)).toBeUndefined();
  });

  it.skipIf(!available)('memberships.findInvitation and listRoster: an invitation by user id carries that account, or null when no account has the id; one by address carries none, even when the address has an account', async () => {
    const t = await team();
    const inviter = await user();
    const named = await user();
    const byAddress = await user();
    const invite = async (who: { userId: string } | { email: string }, createdAt: number) => {
      const id = uniqueId('i');
      const invitee = 'userId' in who ? { email: null, userId: who.userId } : { email: who.email, userId: null };
      expect(await suite.stores.invitations.insert({ id, teamId: t, organizationId: null, ...invitee, role: 'member', invitedBy: inviter, createdAt, updatedAt: createdAt })).toBe(true);
      return id;
    };
    const byId = await invite({ userId: named }, T0 + 1);
    const byEmail = await invite({ email: `${byAddress}@example.com`.toLowerCase() }, T0 + 2);
    const byUnknownId = await invite({ userId: uniqueId('gone') }, T0 + 3);
    const account = { email: `${named}@example.com`, name: 'Ada', username: named };
    expect(await suite.stores.api.memberships.findInvitation({ teamId: t }, byId)).toMatchObject({ invitedUserId: named, invitedEmail: null, invitee: account });
    expect(await suite.stores.api.memberships.findInvitation({ teamId: t }, byEmail)).toMatchObject({ invitedUserId: null, invitee: null });
    expect(await suite.stores.api.memberships.findInvitation({ teamId: t }, byUnknownId)).toMatchObject({ invitee: null });
    expect((await suite.stores.api.memberships.listRoster({ teamId: t }, 10, 0)).map((r) => [r.id, r.state === 'invited' ? r.invitee : 'member'])).toEqual([
      [byId, account],
      [byEmail, null],
      [byUnknownId, null],
    ]);
  });

  it.skipIf(!available)('memberships.isMember: an accepted member is; an invitee or a stranger is not', async () => {
    const t = await team();
    const u = await user();
    await membership({ teamId: t }, u);
    const inviter = await user();
    await invitation(t, inviter);
    expect(await suite.stores.api.memberships.isMember({ teamId: t }, u)).toBe(true);
    expect(await suite.stores.api.memberships.isMember({ teamId: t }, inviter)).toBe(false);
    expect(await suite.stores.api.memberships.isMember({ teamId: await team() }, u)).toBe(false);
  });

  it.skipIf(!available)("memberships.listOrganizationUsers: the organization's members with their role, in the order they joined", async () => {
    const org = await organization();
    const later = await user();
    const earlier = await user();
    await membership({ organizationId: org }, later, T0 + 2);
    await membership({ organizationId: org }, earlier, T0 + 1);
    const users = await suite.stores.api.memberships.listOrganizationUsers(org, 10, 0);
    expect(users.map((u) => [u.id, u.role])).toEqual([
      [earlier, 'member'],
      [later, 'member'],
    ]);
    expect((await suite.stores.api.memberships.listOrganizationUsers(org, 1, 1)).map((u) => u.id)).toEqual([later]);
    expect(await suite.stores.api.memberships.listOrganizationUsers(await organization(), 10, 0)).toEqual([]);
  });

  it.skipIf(!available)('memberships.findOrganizationUser: a member with their membership; a user of no membership there is undefined', async () => {
    const org = await organization();
    const u = await user();
    const m = await membership({ organizationId: org }, u, T0 + 3);
    const found = await suite.stores.api.memberships.findOrganizationUser(org, u);
    expect(found).toMatchObject({ id: u, role: 'member', membershipId: m });
    expect(found).toEqual((await suite.stores.api.memberships.listOrganizationUsers(org, 10, 0))[0]);
    expect(await suite.stores.api.memberships.findOrganizationUser(await organization(), u)).toBeUndefined();
    expect(await suite.stores.api.memberships.findOrganizationUser(org, await user())).toBeUndefined();
  });

  // ProfileStore

  it.skipIf(!available)('profiles.find reads what users.updateProfile wrote; an unknown user is undefined', async () => {
    const u = await user();
    expect(await suite.stores.api.profiles.find('no-such-user')).toBeUndefined();
    expect(await suite.stores.api.profiles.find(u)).toEqual({
      id: u,
      email: `${u}@example.com`,
      name: 'Ada',
      username: u,
      timeZone: 'UTC',
      weekStart: 'Monday',
      timeFormat: 24,
      defaultScheduleId: null,
      organizationId: null,
      bio: null,
      avatarUrl: null,
      locale: null,
      metadata: {},
    });
    await suite.stores.users.updateProfile(u, { name: 'Grace', timeFormat: 12 }, T0 + 1);
    await suite.stores.users.updateProfile('no-such-user', { name: 'x' }, T0 + 1);
    expect(await suite.stores.api.profiles.find(u)).toMatchObject({ name: 'Grace', timeFormat: 12 });
    expect(await suite.stores.api.profiles.find('no-such-user')).toBeUndefined();

    // What the user tells of themselves (migration 029): written, read back, cleared; metadata's
    // values keep their JSON types and its keys their order.
    const metadata = { plan: 'pro', seats: 3, ratio: 0.5, trial: false, 'ключ': 'значение' };
    await suite.stores.users.updateProfile(u, { bio: 'Line one\nLine two', avatarUrl: 'https://example.com/a.png', locale: 'zh-TW', metadata }, T0 + 2);
    const told = await suite.stores.api.profiles.find(u);
    expect(told).toMatchObject({ name: 'Grace', bio: 'Line one\nLine two', avatarUrl: 'https://example.com/a.png', locale: 'zh-TW', metadata });
    expect(Object.keys(told!.metadata)).toEqual(Object.keys(metadata));
    await suite.stores.users.updateProfile(u, { bio: null, avatarUrl: null, metadata: {} }, T0 + 3);
    expect(await suite.stores.api.profiles.find(u)).toMatchObject({ bio: null, avatarUrl: null, locale: 'zh-TW', metadata: {} });
  });

  // RoutingFormStore

  const form = (scope: { teamId: string } | { organizationId: string }, over: Partial<RoutingForm> = {}): RoutingForm => ({
    id: uniqueId('form'),
    teamId: 'teamId' in scope ? scope.teamId : null,
    organizationId: 'organizationId' in scope ? scope.organizationId : null,
    name: 'Intake',
    description: '',
    fields: [{ id: 'f1', label: 'Name', type: 'text', required: true }],
    disabled: false,
    createdAt: T0,
    updatedAt: T0,
    ...over,
  });

  it.skipIf(!available)('routingForms.insert and find: reads back; out of scope or unknown is undefined; a duplicate id throws', async () => {
    const t = await team();
    const f = form({ teamId: t });
    await suite.stores.api.routingForms.insert(f);
    expect(await suite.stores.api.routingForms.find({ teamId: t }, f.id)).toEqual(f);
    expect(await suite.stores.api.routingForms.find({ teamId: await team() }, f.id)).toBeUndefined();
    expect(await suite.stores.api.routingForms.find({ teamId: t }, 'no-such-form')).toBeUndefined();
    await expect(suite.stores.api.routingForms.insert(f)).rejects.toThrow();
  });

  it.skipIf(!available)("routingForms.list: an organization's own and its teams' forms, oldest first, paged", async () => {
    const org = await organization();
    const own = form({ organizationId: org }, { createdAt: T0 + 2 });
    const teams = form({ teamId: await team(org) }, { createdAt: T0 + 1 });
    await suite.stores.api.routingForms.insert(own);
    await suite.stores.api.routingForms.insert(teams);
    await suite.stores.api.routingForms.insert(form({ teamId: await team() }));
    expect((await suite.stores.api.routingForms.list({ organizationId: org }, 10, 0)).map((f) => f.id)).toEqual([teams.id, own.id]);
    expect((await suite.stores.api.routingForms.list({ organizationId: org }, 1, 1)).map((f) => f.id)).toEqual([own.id]);
    expect(await suite.stores.api.routingForms.find({ organizationId: org }, teams.id)).toEqual(teams);
  });

  it.skipIf(!available)('routingForms responses: an unknown form throws; listed oldest first; another form\'s or unknown id is undefined', async () => {
    const t = await team();
    const f = form({ teamId: t });
    const g = form({ teamId: t });
    await suite.stores.api.routingForms.insert(f);
    await suite.stores.api.routingForms.insert(g);
    await expect(suite.stores.api.routingForms.insertResponse({ id: uniqueId('r'), formId: 'no-such-form', answers: {}, createdAt: T0, updatedAt: T0 })).rejects.toThrow();
    const newer = { id: uniqueId('r'), formId: f.id, answers: { f1: 'Ada' }, createdAt: T0 + 2, updatedAt: T0 + 2 };
    const older = { id: uniqueId('r'), formId: f.id, answers: { f1: ['a', 'b'], n: 3 }, createdAt: T0 + 1, updatedAt: T0 + 1 };
    await suite.stores.api.routingForms.insertResponse(newer);
    await suite.stores.api.routingForms.insertResponse(older);
    await expect(suite.stores.api.routingForms.insertResponse(older)).rejects.toThrow();
    expect(await suite.stores.api.routingForms.listResponses(f.id, 10, 0)).toEqual([older, newer]);
    expect(await suite.stores.api.routingForms.listResponses(f.id, 1, 1)).toEqual([newer]);
    expect(await suite.stores.api.routingForms.findResponse(f.id, older.id)).toEqual(older);
    expect(await suite.stores.api.routingForms.findResponse(g.id, older.id)).toBeUndefined();
    expect(await suite.stores.api.routingForms.findResponse(f.id, 'no-such-response')).toBeUndefined();
  });

  it.skipIf(!available)('routingForms.updateResponse and deleteResponse: changes read back; unknown ids change nothing', async () => {
    const f = form({ teamId: await team() });
    await suite.stores.api.routingForms.insert(f);
    const r = { id: uniqueId('r'), formId: f.id, answers: { f1: 'Ada' }, createdAt: T0, updatedAt: T0 };
    await suite.stores.api.routingForms.insertResponse(r);
    await suite.stores.api.routingForms.updateResponse(r.id, { f1: 'Grace' }, T0 + 1);
    await suite.stores.api.routingForms.updateResponse('no-such-response', { f1: 'x' }, T0 + 1);
    expect(await suite.stores.api.routingForms.findResponse(f.id, r.id)).toEqual({ ...r, answers: { f1: 'Grace' }, updatedAt: T0 + 1 });
    await suite.stores.api.routingForms.deleteResponse('no-such-response');
    await suite.stores.api.routingForms.deleteResponse(r.id);
    expect(await suite.stores.api.routingForms.findResponse(f.id, r.id)).toBeUndefined();
  });

  // WebhookStore

  const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';

  const webhook = (owner: { userId: string } | { organizationId: string }, over: Partial<Webhook> = {}): Webhook => ({
    id: uniqueId('wh'),
    ownerId: 'userId' in owner ? owner.userId : null,
    organizationId: 'organizationId' in owner ? owner.organizationId : null,
    eventTypeId: null,
    subscriberUrl: 'https://hooks.example.com/in',
    triggers: ['BOOKING_CREATED'],
    active: true,
    payloadTemplate: null,
    disabledReason: null,
    createdAt: T0,
    updatedAt: T0,
    ...over,
  });

  it.skipIf(!available)("webhooks.insert and find: reads back; another owner's or an unknown id is undefined; a duplicate id throws", async () => {
    const u = await user();
    const w = webhook({ userId: u });
    await suite.stores.webhooks.insert(w, SECRET);
    expect(await suite.stores.webhooks.find({ userId: u }, w.id)).toEqual(w);
    expect(await suite.stores.webhooks.find({ userId: await user() }, w.id)).toBeUndefined();
    expect(await suite.stores.webhooks.find({ userId: u }, 'no-such-webhook')).toBeUndefined();
    await expect(suite.stores.webhooks.insert(w, SECRET)).rejects.toThrow();
  });

  it.skipIf(!available)("webhooks.list: the owner's webhooks, oldest first, paged", async () => {
    const org = await organization();
    const newer = webhook({ organizationId: org }, { createdAt: T0 + 2 });
    const older = webhook({ organizationId: org }, { createdAt: T0 + 1 });
    await suite.stores.webhooks.insert(newer, SECRET);
    await suite.stores.webhooks.insert(older, SECRET);
    expect((await suite.stores.webhooks.list({ organizationId: org }, 10, 0)).map((w) => w.id)).toEqual([older.id, newer.id]);
    expect((await suite.stores.webhooks.list({ organizationId: org }, 1, 1)).map((w) => w.id)).toEqual([newer.id]);
  });

  it.skipIf(!available)("webhooks.update and delete: another owner's webhook is undefined/false and unchanged", async () => {
    const u = await user();
    const stranger = await user();
    const w = webhook({ userId: u });
    await suite.stores.webhooks.insert(w, SECRET);
    expect(await suite.stores.webhooks.update({ userId: stranger }, w.id, { active: false, updatedAt: T0 + 1 })).toBeUndefined();
    expect(await suite.stores.webhooks.find({ userId: u }, w.id)).toEqual(w);
    const updated = await suite.stores.webhooks.update({ userId: u }, w.id, { active: false, triggers: ['BOOKING_CANCELLED'], payloadTemplate: '{}', updatedAt: T0 + 1 });
    expect(updated).toEqual({ ...w, active: false, triggers: ['BOOKING_CANCELLED'], payloadTemplate: '{}', updatedAt: T0 + 1 });
    expect(await suite.stores.webhooks.delete({ userId: stranger }, w.id)).toBe(false);
    expect(await suite.stores.webhooks.delete({ userId: u }, w.id)).toBe(true);
    expect(await suite.stores.webhooks.delete({ userId: u }, w.id)).toBe(false);
    expect(await suite.stores.webhooks.find({ userId: u }, w.id)).toBeUndefined();
  });

  // WorkflowStore

  const workflow = (teamId: string, over: Partial<Workflow> = {}): Workflow => ({
    id: uniqueId('wf'),
    teamId,
    name: 'Reminder',
    trigger: 'BEFORE_EVENT',
    timeOffsetMinutes: 60,
    steps: [{ action: 'EMAIL_ATTENDEE', template: 'REMINDER', body: 'See you soon' }],
    activeOnEventTypeIds: [],
    active: true,
    createdAt: T0,
    updatedAt: T0,
    ...over,
  });

  it.skipIf(!available)("workflows.insert and find: reads back; another team's or an unknown id is undefined; a duplicate id throws", async () => {
    const t = await team();
    const w = workflow(t);
    await suite.stores.api.workflows.insert(w);
    expect(await suite.stores.api.workflows.find(t, w.id)).toEqual(w);
    expect(await suite.stores.api.workflows.find(await team(), w.id)).toBeUndefined();
    expect(await suite.stores.api.workflows.find(t, 'no-such-workflow')).toBeUndefined();
    await expect(suite.stores.api.workflows.insert(w)).rejects.toThrow();
  });

  it.skipIf(!available)("workflows.list, update and delete: oldest first; unknown ids change nothing; another team's delete is false", async () => {
    const t = await team();
    const newer = workflow(t, { createdAt: T0 + 2 });
    const older = workflow(t, { createdAt: T0 + 1 });
    await suite.stores.api.workflows.insert(newer);
    await suite.stores.api.workflows.insert(older);
    expect((await suite.stores.api.workflows.list(t, 10, 0)).map((w) => w.id)).toEqual([older.id, newer.id]);
    expect((await suite.stores.api.workflows.list(t, 1, 1)).map((w) => w.id)).toEqual([newer.id]);
    await suite.stores.api.workflows.update(older.id, { name: 'Follow-up', active: false, updatedAt: T0 + 3 });
    await suite.stores.api.workflows.update('no-such-workflow', { name: 'x', updatedAt: T0 + 3 });
    expect(await suite.stores.api.workflows.find(t, older.id)).toEqual({ ...older, name: 'Follow-up', active: false, updatedAt: T0 + 3 });
    expect(await suite.stores.api.workflows.delete(await team(), older.id)).toBe(false);
    expect(await suite.stores.api.workflows.delete(t, older.id)).toBe(true);
    expect(await suite.stores.api.workflows.delete(t, older.id)).toBe(false);
  });

  // ConnectedAppStore

  const app = (owner: { userId: string } | { teamId: string }, over: Partial<ConnectedApp> = {}): ConnectedApp => ({
    id: uniqueId('app'),
    owner,
    app: 'google-calendar',
    category: 'calendar',
    account: uniqueId('acct'),
    name: 'Work',
    readOnly: false,
    createdAt: T0,
    selected: false,
    destination: false,
    ...over,
  });

  it.skipIf(!available)('connectedApps.insertAll: an account already connected answers false and inserts none of the batch', async () => {
    const u = await user();
    const first = app({ userId: u });
    expect(await suite.stores.api.connectedApps.insertAll([first])).toBe(true);
    const fresh = app({ userId: u }, { createdAt: T0 + 1 });
    expect(await suite.stores.api.connectedApps.insertAll([fresh, app({ userId: u }, { account: first.account })])).toBe(false);
    expect(await suite.stores.api.connectedApps.list({ userId: u })).toEqual([first]);
    expect(await suite.stores.api.connectedApps.insertAll([app({ userId: await user() }, { account: first.account })])).toBe(true);
  });

  it.skipIf(!available)("connectedApps.list and findAccount: the owner's, oldest first, filtered; an unknown account is undefined", async () => {
    const t = await team();
    const cal = app({ teamId: t }, { createdAt: T0 + 2 });
    const zoom = app({ teamId: t }, { app: 'zoom', category: 'conferencing', createdAt: T0 + 1, readOnly: true });
    expect(await suite.stores.api.connectedApps.insertAll([cal, zoom])).toBe(true);
    expect(await suite.stores.api.connectedApps.list({ teamId: t })).toEqual([zoom, cal]);
    expect(await suite.stores.api.connectedApps.list({ teamId: t }, { category: 'calendar' })).toEqual([cal]);
    expect(await suite.stores.api.connectedApps.list({ teamId: t }, { app: 'zoom' })).toEqual([zoom]);
    expect(await suite.stores.api.connectedApps.findAccount({ teamId: t }, 'zoom', zoom.account)).toEqual(zoom);
    expect(await suite.stores.api.connectedApps.findAccount({ teamId: t }, 'google-calendar', zoom.account)).toBeUndefined();
    expect(await suite.stores.api.connectedApps.findAccount({ teamId: await team() }, 'zoom', zoom.account)).toBeUndefined();
  });

  it.skipIf(!available)("connectedApps.find: the owner's connection of that id, if of the category and app asked; another owner's or an unknown id is undefined", async () => {
    const u = await user();
    const t = await team();
    const cal = app({ userId: u }, { createdAt: T0 + 1 });
    const zoom = app({ userId: u }, { app: 'zoom', category: 'conferencing', readOnly: true });
    const teams = app({ teamId: t });
    expect(await suite.stores.api.connectedApps.insertAll([cal, zoom, teams])).toBe(true);
    await suite.stores.api.connectedApps.setSelected(u, cal.id, true);
    expect(await suite.stores.api.connectedApps.find({ userId: u }, cal.id)).toEqual({ ...cal, selected: true });
    expect(await suite.stores.api.connectedApps.find({ userId: u }, zoom.id)).toEqual(zoom);
    expect(await suite.stores.api.connectedApps.find({ userId: u }, cal.id, { category: 'calendar' })).toEqual({ ...cal, selected: true });
    expect(await suite.stores.api.connectedApps.find({ userId: u }, cal.id, { category: 'calendar', app: 'google-calendar' })).toEqual({ ...cal, selected: true });
    expect(await suite.stores.api.connectedApps.find({ userId: u }, zoom.id, { category: 'calendar' })).toBeUndefined();
    expect(await suite.stores.api.connectedApps.find({ userId: u }, cal.id, { app: 'apple-calendar' })).toBeUndefined();
    expect(await suite.stores.api.connectedApps.find({ teamId: t }, teams.id)).toEqual(teams);
    // The same id under another owner is not theirs.
    expect(await suite.stores.api.connectedApps.find({ userId: u }, teams.id)).toBeUndefined();
    expect(await suite.stores.api.connectedApps.find({ teamId: t }, cal.id)).toBeUndefined();
    expect(await suite.stores.api.connectedApps.find({ userId: await user() }, cal.id)).toBeUndefined();
    expect(await suite.stores.api.connectedApps.find({ userId: u }, 'no-such-connection')).toBeUndefined();
  });

  it.skipIf(!available)("connectedApps.setSelected and setDestination: the user's own connection only; one destination at a time", async () => {
    const u = await user();
    const [a, b] = [app({ userId: u }, { createdAt: T0 }), app({ userId: u }, { app: 'office365-calendar', createdAt: T0 + 1 })];
    const other = await user();
    const theirs = app({ userId: other });
    await suite.stores.api.connectedApps.insertAll([a, b, theirs]);
    expect(await suite.stores.api.connectedApps.setSelected(u, a.id, true)).toBe(true);
    expect(await suite.stores.api.connectedApps.setSelected(u, theirs.id, true)).toBe(false);
    expect(await suite.stores.transaction((tx) => tx.api.connectedApps.setDestination(u, a.id))).toBe(true);
    expect(await suite.stores.transaction((tx) => tx.api.connectedApps.setDestination(u, b.id))).toBe(true);
    expect(await suite.stores.transaction((tx) => tx.api.connectedApps.setDestination(u, theirs.id))).toBe(false);
    expect(await suite.stores.api.connectedApps.list({ userId: u })).toEqual([
      { ...a, selected: true, destination: false },
      { ...b, selected: false, destination: true },
    ]);
    expect((await suite.stores.api.connectedApps.list({ userId: other }))[0]).toMatchObject({ selected: false, destination: false });
  });

  it.skipIf(!available)('users.deleteUnlessClientsOrGrants: an owner of a client keeps the account (false); any other user goes with their memberships', async () => {
    const keeper = await user();
    await seedClient(suite.database.handle.db, keeper);
    expect(await suite.stores.users.deleteUnlessClientsOrGrants(keeper)).toBe(false);
    expect(await suite.stores.users.findById(keeper)).toBeDefined();
    const goner = await user();
    const t = await team();
    await membership({ teamId: t }, goner);
    expect(await suite.stores.users.deleteUnlessClientsOrGrants(goner)).toBe(true);
    expect(await suite.stores.users.findById(goner)).toBeUndefined();
    expect(await suite.stores.teams.findMembershipOfUser({ teamId: t }, goner)).toBeUndefined();
    expect(await suite.stores.users.deleteUnlessClientsOrGrants(goner)).toBe(false);
  });

  it.skipIf(!available)("connectedApps.delete: another owner's or another app's id is false; the owner's goes", async () => {
    const u = await user();
    const a = app({ userId: u });
    await suite.stores.api.connectedApps.insertAll([a]);
    expect(await suite.stores.api.connectedApps.delete({ userId: await user() }, a.app, a.id)).toBe(false);
    expect(await suite.stores.api.connectedApps.delete({ userId: u }, 'zoom', a.id)).toBe(false);
    expect(await suite.stores.api.connectedApps.delete({ userId: u }, a.app, a.id)).toBe(true);
    expect(await suite.stores.api.connectedApps.delete({ userId: u }, a.app, a.id)).toBe(false);
    expect(await suite.stores.api.connectedApps.list({ userId: u })).toEqual([]);
  });

  it.skipIf(!available)("connectedApps.setDefault and defaultOf: one default per user, only of the user's own connection, gone with it", async () => {
    const apps = suite.stores.api.connectedApps;
    const u = await user();
    const meet = app({ userId: u }, { app: 'google-meet', category: 'conferencing' });
    const zoom = app({ userId: u }, { app: 'zoom', category: 'conferencing', createdAt: T0 + 1 });
    const theirs = app({ userId: await user() }, { app: 'zoom', category: 'conferencing' });
    expect(await apps.insertAll([meet, zoom, theirs])).toBe(true);
    expect(await apps.defaultOf(u)).toBeUndefined();
    expect(await apps.setDefault(u, theirs.id, T0)).toBe(false);
    expect(await apps.setDefault(u, 'no-such-app', T0)).toBe(false);
    expect(await apps.defaultOf(u)).toBeUndefined();
    expect(await apps.setDefault(u, meet.id, T0)).toBe(true);
    expect(await apps.setDefault(u, zoom.id, T0 + 1)).toBe(true);
    expect(await apps.defaultOf(u)).toEqual(zoom);
    expect(await apps.delete({ userId: u }, 'zoom', zoom.id)).toBe(true);
    expect(await apps.defaultOf(u)).toBeUndefined();
    expect(await apps.setDefault(u, zoom.id, T0 + 2)).toBe(false);
  });

  // VerifiedResourceStore (services) and the /v2 one

  const resource = (owner: { userId: string } | { teamId: string }, over: Partial<VerifiedResource> = {}): VerifiedResource => ({
    id: uniqueId('vr'),
    userId: 'userId' in owner ? owner.userId : null,
    teamId: 'teamId' in owner ? owner.teamId : null,
    kind: 'email',
    value: `${uniqueId('addr')}@example.com`.toLowerCase(),
    verifiedAt: null,
    codeHash: null,
    codeExpiresAt: null,
    attempts: 0,
    createdAt: T0,
    updatedAt: T0,
    ...over,
  });

  it.skipIf(!available)('verifiedResources.insert and find: reads back; a duplicate answers false; an unknown value is undefined', async () => {
    const u = await user();
    const r = resource({ userId: u });
    expect(await suite.stores.verifiedResources.insert(r)).toBe(true);
    expect(await suite.stores.verifiedResources.find({ userId: u }, 'email', r.value)).toEqual(r);
    expect(await suite.stores.verifiedResources.insert({ ...r, id: uniqueId('vr') })).toBe(false);
    expect(await suite.stores.verifiedResources.find({ userId: u }, 'phone', r.value)).toBeUndefined();
    expect(await suite.stores.verifiedResources.find({ userId: await user() }, 'email', r.value)).toBeUndefined();
  });

  it.skipIf(!available)('verifiedResources codes: spendAttempt stops at maxAttempts; markVerified takes only the pending code, once', async () => {
    const u = await user();
    const r = resource({ userId: u });
    await suite.stores.verifiedResources.insert(r);
    expect(await suite.stores.verifiedResources.spendAttempt(r.id, 3, T0)).toBe(false);
    await suite.stores.verifiedResources.setPendingCode(r.id, 'code-1', T0 + 600_000, T0);
    expect(await suite.stores.verifiedResources.spendAttempt(r.id, 2, T0)).toBe(true);
    expect(await suite.stores.verifiedResources.spendAttempt(r.id, 2, T0)).toBe(true);
    expect(await suite.stores.verifiedResources.spendAttempt(r.id, 2, T0)).toBe(false);
    await suite.stores.verifiedResources.setPendingCode(r.id, 'code-2', T0 + 600_000, T0 + 1);
    expect(await suite.stores.verifiedResources.find({ userId: u }, 'email', r.value)).toMatchObject({ codeHash: 'code-2', attempts: 0 });
    expect(await suite.stores.verifiedResources.markVerified(r.id, 'code-1', T0 + 2)).toBe(false);
    expect(await suite.stores.verifiedResources.markVerified(r.id, 'code-2', T0 + 2)).toBe(true);
    expect(await suite.stores.verifiedResources.markVerified(r.id, 'code-2', T0 + 3)).toBe(false);
    expect(await suite.stores.verifiedResources.find({ userId: u }, 'email', r.value)).toMatchObject({ verifiedAt: T0 + 2, codeHash: null });
  });

  it.skipIf(!available)('verifiedResources.listVerified: only verified ones of the kind, in the order verified, a page at a time', async () => {
    const t = await team();
    const later = resource({ teamId: t }, { verifiedAt: T0 + 2 });
    const earlier = resource({ teamId: t }, { verifiedAt: T0 + 1 });
    const pending = resource({ teamId: t });
    const phone = resource({ teamId: t }, { kind: 'phone', value: '+15550100', verifiedAt: T0 });
    for (const r of [later, earlier, pending, phone]) expect(await suite.stores.verifiedResources.insert(r)).toBe(true);
    expect(await suite.stores.verifiedResources.listVerified({ teamId: t }, 'email', 10, 0)).toEqual([
      expect.objectContaining({ id: earlier.id, kind: 'email', value: earlier.value, verifiedAt: T0 + 1 }),
      expect.objectContaining({ id: later.id, kind: 'email', value: later.value, verifiedAt: T0 + 2 }),
    ]);
    expect((await suite.stores.verifiedResources.listVerified({ teamId: t }, 'email', 1, 1)).map((r) => r.id)).toEqual([later.id]);
    expect((await suite.stores.verifiedResources.listVerified({ teamId: t }, 'phone', 10, 0)).map((r) => r.id)).toEqual([phone.id]);
  });

  // AuditStore and AuditLogReader

  it.skipIf(!available)('audit.append and auditLog.list: events read back newest first, filtered by client and user, at most limit', async () => {
    const u = await user();
    const client = await seedClient(suite.database.handle.db, u);
    await suite.stores.audit.append({ type: 'client.created', actorId: u, clientId: client, userId: u, data: { n: 1 } }, T0 + 1);
    await suite.stores.audit.append({ type: 'client.approved', actorId: null, clientId: client }, T0 + 2);
    await suite.stores.audit.append({ type: 'login.failed', userId: u }, T0 + 3);
    const byClient = await suite.stores.auditLog.list({ clientId: client });
    expect(byClient.map((e) => e.type)).toEqual(['client.approved', 'client.created']);
    expect(byClient[1]).toMatchObject({ actorId: u, clientId: client, userId: u, data: { n: 1 }, createdAt: T0 + 1 });
    expect(byClient[0]).toMatchObject({ actorId: null, userId: null, data: null });
    expect((await suite.stores.auditLog.list({ userId: u })).map((e) => e.type)).toEqual(['login.failed', 'client.created']);
    expect((await suite.stores.auditLog.list({ clientId: client, userId: u })).map((e) => e.type)).toEqual(['client.created']);
    expect((await suite.stores.auditLog.list({ userId: u, limit: 1 })).map((e) => e.type)).toEqual(['login.failed']);
    expect(await suite.stores.auditLog.list({ userId: 'no-such-user' })).toEqual([]);
  });

  it.skipIf(!available)('transaction: an audit event, a webhook and a connected app written before the function throws are rolled back', async () => {
    const u = await user();
    const w = webhook({ userId: u });
    await expect(
      suite.stores.transaction(async (tx) => {
        await tx.audit.append({ type: 'login.failed', userId: u }, T0);
        await tx.webhooks.insert(w, SECRET);
        expect(await tx.api.connectedApps.insertAll([app({ userId: u })])).toBe(true);
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    expect(await suite.stores.auditLog.list({ userId: u })).toEqual([]);
    expect(await suite.stores.webhooks.find({ userId: u }, w.id)).toBeUndefined();
    expect(await suite.stores.api.connectedApps.list({ userId: u })).toEqual([]);
  });
});
