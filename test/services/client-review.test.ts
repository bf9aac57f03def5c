// An admin's review and a developer's changes of an OAuth client (src/services/clients:
// review.ts, changes.ts), called in process over SQLite :memory: through the real adapters:
// the review states, held changes, review versions and the migration of legacy clients. The
// pages and the CLI that drive them are tested in test/web/lifecycle-*.test.ts.
import { describe, expect } from 'vitest';
import { countScopelessRequests, migrateLegacyClient, SCOPELESS_WINDOW_MS, updateClient } from '../../src/services/clients/changes.ts';
import { importLegacyClient, type NewClient } from '../../src/services/clients/registration.ts';
import { approveHeldChanges, rejectHeldChanges, reviewClient, setResourceServer } from '../../src/services/clients/review.ts';
import { STALE_VERSION } from '../../src/services/clients/version.ts';
import { hasHeldChange, requireClient } from '../../src/services/clients/view.ts';
import { clientKey } from '../helpers/client-keys.ts';
import { it, type PlatformWorld } from './platform/world.ts';

const CALLBACK = 'https://app.example.com/callback';
const SECOND = 'https://app.example.com/second';

/** A client an admin has approved, at version 2 (the approval raised it), and its owner and reviewer. */
async function approvedClient(world: PlatformWorld, over: Partial<NewClient> = {}) {
  const owner = await world.user();
  const admin = await world.user();
  const { client } = await world.client(owner, over);
  const approved = await reviewClient(world.ctx, client.clientId, 'approve', admin);
  return { owner, admin, id: client.clientId, client: approved };
}

/** The audit events of a client, oldest first. */
async function events(world: PlatformWorld, clientId: string) {
  return (await world.ctx.stores.auditLog.list({ clientId })).reverse();
}

/** Gives the client an events URL and a signing secret, as setEventsUrl does, so it can be told of decisions. */
async function listenForEvents(world: PlatformWorld, clientId: string): Promise<void> {
  await world.ctx.stores.webhookDeliveries.setClientEventsUrl(clientId, 'https://app.example.com/events', world.now());
  await world.ctx.stores.webhookDeliveries.replaceClientEventsSecret(clientId, null, 'whsec_dGVzdA', world.now());
}

describe('review states (docs/rules.md#client-states)', () => {
  it('pending → approved: the state, the reviewer and the time are stored, the version raised and the decision audited', async ({ world }) => {
    const owner = await world.user();
    const admin = await world.user();
    const { client } = await world.client(owner);
    world.advance(60_000);
    const approved = await reviewClient(world.ctx, client.clientId, 'approve', admin, '  looks fine  ');
    expect(approved).toMatchObject({ state: 'approved', reviewedBy: admin, reviewedAt: world.now(), reviewNote: 'looks fine', version: 2 });
    expect((await world.oauth.findClient(client.clientId))?.state).toBe('approved');
    const last = (await events(world, client.clientId)).at(-1);
    expect(last).toMatchObject({ type: 'client.approved', actorId: admin, data: { reason: 'looks fine' } });
  });

  it('each decision applies only from its states: approve from pending or suspended, reject from pending, suspend from approved', async ({ world }) => {
    const admin = await world.user();
    const owner = await world.user();
    const { client } = await world.client(owner);
    const id = client.clientId;
    await expect(reviewClient(world.ctx, id, 'suspend', admin)).rejects.toMatchObject({ kind: 'conflict', message: 'cannot suspend a client that is pending (allowed from: approved)' });
    await reviewClient(world.ctx, id, 'approve', admin);
    await expect(reviewClient(world.ctx, id, 'reject', admin, 'no')).rejects.toMatchObject({ kind: 'conflict', message: 'cannot reject a client that is approved (allowed from: pending)' });
    await expect(reviewClient(world.ctx, id, 'approve', admin)).rejects.toMatchObject({ kind: 'conflict' });
    expect((await reviewClient(world.ctx, id, 'suspend', admin, 'abuse reported')).state).toBe('suspended');
    expect((await reviewClient(world.ctx, id, 'approve', admin)).state).toBe('approved');

    const other = await world.client(owner);
    expect((await reviewClient(world.ctx, other.client.clientId, 'reject', admin, 'name misleads users')).state).toBe('rejected');
    await expect(reviewClient(world.ctx, other.client.clientId, 'approve', admin)).rejects.toMatchObject({ kind: 'conflict', message: expect.stringContaining('rejected') });
    expect((await requireClient(world.ctx, other.client.clientId)).state).toBe('rejected');
  });

  it('a rejection needs a reason for the developer; a reason is at most 1000 characters; a refused decision changes nothing', async ({ world }) => {
    const admin = await world.user();
    const { client } = await world.client(await world.user());
    const id = client.clientId;
    for (const reason of [undefined, '', '   ']) {
      await expect(reviewClient(world.ctx, id, 'reject', admin, reason)).rejects.toMatchObject({ kind: 'validation', field: 'reason', message: 'a rejection needs a reason for the developer' });
    }
    await expect(reviewClient(world.ctx, id, 'reject', admin, 'x'.repeat(1001))).rejects.toMatchObject({ kind: 'validation', field: 'reason' });
    expect(await requireClient(world.ctx, id)).toMatchObject({ state: 'pending', version: 1, reviewNote: null });
    expect((await events(world, id)).map((e) => e.type)).toEqual(['client.created', 'secret.created']);
    const rejected = await reviewClient(world.ctx, id, 'reject', admin, ' Tell users what the app does. ');
    expect(rejected).toMatchObject({ state: 'rejected', reviewNote: 'Tell users what the app does.' });
  });

  it('an unknown client is not found', async ({ world }) => {
    await expect(reviewClient(world.ctx, 'no-such-client', 'approve', null)).rejects.toMatchObject({ kind: 'not_found' });
  });

  it('the application is told of its approval and its suspension at its events URL, not of a rejection (docs/rules.md#client-events)', async ({ world }) => {
    const admin = await world.user();
    const owner = await world.user();
    const { client } = await world.client(owner);
    await listenForEvents(world, client.clientId);
    await reviewClient(world.ctx, client.clientId, 'approve', admin);
    world.advance(1000);
    await reviewClient(world.ctx, client.clientId, 'suspend', admin, 'abuse reported');
    const deliveries = await world.ctx.stores.webhookDeliveries.list({ clientId: client.clientId }, 10, 0);
    expect(deliveries.map((d) => d.event)).toEqual(['client.suspended', 'client.approved']);
    expect(JSON.parse(deliveries[0]!.payload)).toMatchObject({ type: 'client.suspended', data: { clientId: client.clientId, state: 'suspended', reason: 'abuse reported' } });

    const rejected = await world.client(owner);
    await listenForEvents(world, rejected.client.clientId);
    await reviewClient(world.ctx, rejected.client.clientId, 'reject', admin, 'no');
    expect(await world.ctx.stores.webhookDeliveries.list({ clientId: rejected.client.clientId }, 10, 0)).toEqual([]);
  });
});

describe('a review decides on the version it saw (docs/rules.md#review-versions)', () => {
  it('a decision made on an older version changes nothing; on the current one it applies', async ({ world }) => {
    const owner = await world.user();
    const admin = await world.user();
    const { client } = await world.client(owner);
    const seen = client.version;
    await updateClient(world.ctx, client.clientId, owner, { description: 'Now with more reach' });
    expect((await requireClient(world.ctx, client.clientId)).version).toBe(seen + 1);
    await expect(reviewClient(world.ctx, client.clientId, 'approve', admin, undefined, { expectedVersion: seen })).rejects.toMatchObject({
      kind: 'conflict',
      field: 'version',
      message: STALE_VERSION,
    });
    expect((await requireClient(world.ctx, client.clientId)).state).toBe('pending');
    expect((await events(world, client.clientId)).map((e) => e.type)).not.toContain('client.approved');
    const approved = await reviewClient(world.ctx, client.clientId, 'approve', admin, undefined, { expectedVersion: seen + 1 });
    expect(approved).toMatchObject({ state: 'approved', version: seen + 2 });
  });

  it('a decision on a held change the developer changed after the admin looked is refused, for approval and for rejection', async ({ world }) => {
    const { owner, admin, id } = await approvedClient(world);
    const held = await updateClient(world.ctx, id, owner, { redirectUris: [CALLBACK, SECOND] });
    const seen = held.client.version;
    await updateClient(world.ctx, id, owner, { redirectUris: [CALLBACK, SECOND, 'https://evil.example.net/cb'] });
    await expect(approveHeldChanges(world.ctx, id, admin, { expectedVersion: seen })).rejects.toMatchObject({ kind: 'conflict', field: 'version' });
    await expect(rejectHeldChanges(world.ctx, id, admin, 'no', { expectedVersion: seen })).rejects.toMatchObject({ kind: 'conflict', field: 'version' });
    expect(await requireClient(world.ctx, id)).toMatchObject({ redirectUris: [CALLBACK], proposedRedirectUris: [SECOND, 'https://evil.example.net/cb'] });
  });

  it('marking a resource server raises the version; a public client cannot be one (docs/rules.md#introspection, RFC 7662 §2.1)', async ({ world }) => {
    const admin = await world.user();
    const { id, client } = await approvedClient(world);
    await setResourceServer(world.ctx, id, true, admin);
    expect(await requireClient(world.ctx, id)).toMatchObject({ resourceServer: true, version: client.version + 1 });
    await setResourceServer(world.ctx, id, false, admin);
    expect(await requireClient(world.ctx, id)).toMatchObject({ resourceServer: false, version: client.version + 2 });
    expect((await events(world, id)).filter((e) => e.type === 'client.resource_server_changed').map((e) => e.data)).toEqual([{ resourceServer: true }, { resourceServer: false }]);

    const pub = await world.client(await world.user(), { kind: 'public' });
    await expect(setResourceServer(world.ctx, pub.client.clientId, true, admin)).rejects.toMatchObject({ kind: 'conflict', message: expect.stringContaining('is public') });
    expect((await requireClient(world.ctx, pub.client.clientId)).resourceServer).toBe(false);
    await expect(setResourceServer(world.ctx, 'no-such-client', true, admin)).rejects.toMatchObject({ kind: 'not_found' });
  });
});

describe('changing a client (docs/rules.md#client-changes)', () => {
  it('a pending client is changed at once: nothing is held before the first review', async ({ world }) => {
    const owner = await world.user();
    const { client } = await world.client(owner);
    const result = await updateClient(world.ctx, client.clientId, owner, { redirectUris: [SECOND], scopes: ['PROFILE_READ', 'BOOKING_READ'] });
    expect(result.held).toEqual({ redirectUris: [], scopes: [] });
    expect(result.client).toMatchObject({ redirectUris: [SECOND], scopes: ['BOOKING_READ', 'PROFILE_READ'], version: 2 });
    expect((await world.oauth.findClient(client.clientId))?.redirectUris).toEqual([SECOND]);
  });

  it('on an approved client additions are held while the approved configuration stays live; removals and plain fields apply at once', async ({ world }) => {
    const { owner, id, client } = await approvedClient(world, { redirectUris: [CALLBACK, 'https://app.example.com/old'], scopes: ['PROFILE_READ', 'BOOKING_READ'] });
    const result = await updateClient(world.ctx, id, owner, {
      name: 'Calendar Sync 2',
      redirectUris: [CALLBACK, SECOND],
      scopes: ['PROFILE_READ', 'SCHEDULE_READ'],
    });
    expect(result.held).toEqual({ redirectUris: [SECOND], scopes: ['SCHEDULE_READ'] });
    expect(result.client).toMatchObject({
      state: 'approved',
      name: 'Calendar Sync 2',
      redirectUris: [CALLBACK],
      scopes: ['PROFILE_READ'],
      proposedRedirectUris: [SECOND],
      proposedScopes: ['SCHEDULE_READ'],
      version: client.version + 1,
    });
    expect(hasHeldChange(result.client)).toBe(true);
    // What the token endpoint and the authorize step read is the approved configuration.
    expect(await world.oauth.findClient(id)).toMatchObject({ redirectUris: [CALLBACK], scopes: ['PROFILE_READ'], state: 'approved' });
    const updated = (await events(world, id)).find((e) => e.type === 'client.updated');
    expect(updated?.data).toEqual({ fields: ['name', 'redirect_uris', 'scopes'], awaitingReview: { redirectUris: [SECOND], scopes: ['SCHEDULE_READ'] } });
  });

  it('a suspended client holds additions too: an admin may approve it again', async ({ world }) => {
    const { owner, admin, id } = await approvedClient(world);
    await reviewClient(world.ctx, id, 'suspend', admin, 'abuse');
    const result = await updateClient(world.ctx, id, owner, { scopes: ['PROFILE_READ', 'BOOKING_READ'] });
    expect(result.held.scopes).toEqual(['BOOKING_READ']);
    expect(result.client.scopes).toEqual(['PROFILE_READ']);
  });

  it('an approved client keeps at least one approved redirect URI and one approved scope until an admin approves the new ones', async ({ world }) => {
    const { owner, id, client } = await approvedClient(world);
    await expect(updateClient(world.ctx, id, owner, { redirectUris: [SECOND] })).rejects.toMatchObject({ kind: 'validation', field: 'redirect_uris', message: expect.stringContaining('keep at least one approved redirect URI') });
    await expect(updateClient(world.ctx, id, owner, { scopes: ['BOOKING_READ'] })).rejects.toMatchObject({ kind: 'validation', field: 'scopes' });
    expect(await requireClient(world.ctx, id)).toMatchObject({ redirectUris: [CALLBACK], scopes: ['PROFILE_READ'], proposedRedirectUris: [], version: client.version });
  });

  it('an edit is checked whole before anything is written, with the creation rules (at most 10 URIs, at least one scope)', async ({ world }) => {
    const owner = await world.user();
    const { client } = await world.client(owner);
    const eleven = Array.from({ length: 11 }, (_, i) => `https://app.example.com/${i}`);
    await expect(updateClient(world.ctx, client.clientId, owner, { name: 'Renamed', redirectUris: eleven })).rejects.toMatchObject({ field: 'redirect_uris' });
    await expect(updateClient(world.ctx, client.clientId, owner, { name: 'Renamed', scopes: [] })).rejects.toMatchObject({ field: 'scopes' });
    expect(await requireClient(world.ctx, client.clientId)).toMatchObject({ name: 'Calendar Sync', version: 1 });
  });

  it('an edit that changes nothing raises no version and audits nothing', async ({ world }) => {
    const { owner, id, client } = await approvedClient(world);
    const before = (await events(world, id)).length;
    const result = await updateClient(world.ctx, id, owner, { name: ' Calendar Sync ', redirectUris: [CALLBACK], scopes: ['PROFILE_READ'] });
    expect(result).toMatchObject({ held: { redirectUris: [], scopes: [] }, migrated: false, resubmitted: false });
    expect(result.client.version).toBe(client.version);
    expect(await events(world, id)).toHaveLength(before);
  });

  it('withdrawing a held addition clears it and raises the version', async ({ world }) => {
    const { owner, id } = await approvedClient(world);
    const held = await updateClient(world.ctx, id, owner, { redirectUris: [CALLBACK, SECOND] });
    const withdrawn = await updateClient(world.ctx, id, owner, { redirectUris: [CALLBACK] });
    expect(withdrawn.client).toMatchObject({ proposedRedirectUris: [], version: held.client.version + 1 });
  });

  it('PAR, DPoP binding and the authentication method apply at once on an approved client: they narrow what it may do (docs/rules.md#pushed-authorization, docs/rules.md#dpop)', async ({ world }) => {
    const { owner, id } = await approvedClient(world);
    const result = await updateClient(world.ctx, id, owner, { requirePushedAuthorizationRequests: true, dpopBoundAccessTokens: true, tokenEndpointAuthMethod: 'client_secret_post' });
    expect(result.held).toEqual({ redirectUris: [], scopes: [] });
    expect(await world.ctx.stores.clients.find(id)).toMatchObject({ requirePushedAuthorizationRequests: true, dpopBoundAccessTokens: true, tokenEndpointAuthMethod: 'client_secret_post' });
    await expect(updateClient(world.ctx, id, owner, { tokenEndpointAuthMethod: 'none' })).rejects.toMatchObject({ field: 'token_endpoint_auth_method' });
    await expect(updateClient(world.ctx, id, owner, { fapi2: true })).rejects.toMatchObject({ field: 'fapi2', message: expect.stringContaining('private_key_jwt') });
    const pub = await world.client(owner, { kind: 'public' });
    await expect(updateClient(world.ctx, pub.client.clientId, owner, { fapi2: true })).rejects.toMatchObject({ field: 'fapi2', message: expect.stringContaining('confidential') });
  });

  it("a client's public keys apply at once, as secrets do; a private_key_jwt client cannot lose them (docs/rules.md#client-authentication)", async ({ world }) => {
    const key = await clientKey();
    const { owner, id, client } = await approvedClient(world, { tokenEndpointAuthMethod: 'private_key_jwt', jwks: key.jwks });
    for (const jwks of [null, '', '   ']) {
      await expect(updateClient(world.ctx, id, owner, { jwks })).rejects.toMatchObject({ kind: 'validation', field: 'jwks', message: expect.stringContaining('private_key_jwt needs') });
    }
    expect((await world.ctx.stores.clients.find(id))?.jwks).toEqual(key.jwks);
    const next = await clientKey();
    const rotated = await updateClient(world.ctx, id, owner, { jwks: JSON.stringify(next.jwks) });
    expect(rotated.held).toEqual({ redirectUris: [], scopes: [] });
    expect(rotated.client).toMatchObject({ jwks: next.jwks, version: client.version + 1 });
    // Back to secrets: the keys may go with the method.
    const back = await updateClient(world.ctx, id, owner, { tokenEndpointAuthMethod: 'client_secret_basic', jwks: '' });
    expect(back.client).toMatchObject({ tokenEndpointAuthMethod: 'client_secret_basic', jwks: null });
    expect((await events(world, id)).at(-1)?.data).toEqual({ fields: ['jwks', 'token_endpoint_auth_method'] });
  });

  it('a developer who edits a rejected client resubmits it: rejected → pending, the review cleared (docs/rules.md#client-states)', async ({ world }) => {
    const owner = await world.user();
    const admin = await world.user();
    const { client } = await world.client(owner);
    await reviewClient(world.ctx, client.clientId, 'reject', admin, 'describe it');
    const result = await updateClient(world.ctx, client.clientId, owner, { description: 'It syncs calendars.' });
    expect(result.resubmitted).toBe(true);
    expect(result.client).toMatchObject({ state: 'pending', reviewNote: null, reviewedBy: null, reviewedAt: null, description: 'It syncs calendars.' });
    expect((await events(world, client.clientId)).at(-1)?.data).toMatchObject({ resubmitted: true });
  });

  it('a metadata document published again is no resubmission: the rejection stands (docs/rules.md#client-metadata-documents)', async ({ world }) => {
    const owner = await world.user();
    const admin = await world.user();
    const { client } = await world.client(owner);
    await reviewClient(world.ctx, client.clientId, 'reject', admin, 'no');
    const result = await updateClient(world.ctx, client.clientId, null, { name: 'Renamed' }, { fromDocument: { reviewed: true } });
    expect(result.resubmitted).toBe(false);
    expect(result.client).toMatchObject({ state: 'rejected', name: 'Renamed', reviewNote: 'no' });
  });

  it("a reviewed document may drop every live redirect URI, its additions held; an unreviewed one applies as published (docs/rules.md#cimd-policy)", async ({ world }) => {
    const reviewed = await approvedClient(world);
    const held = await updateClient(world.ctx, reviewed.id, null, { redirectUris: [SECOND] }, { fromDocument: { reviewed: true } });
    expect(held.client).toMatchObject({ redirectUris: [], proposedRedirectUris: [SECOND] });
    expect((await events(world, reviewed.id)).at(-1)?.data).toMatchObject({ source: 'client metadata document' });

    const open = await approvedClient(world);
    const applied = await updateClient(world.ctx, open.id, null, { redirectUris: [SECOND], scopes: ['PROFILE_READ', 'BOOKING_READ'] }, { fromDocument: { reviewed: false } });
    expect(applied.held).toEqual({ redirectUris: [], scopes: [] });
    expect(applied.client).toMatchObject({ redirectUris: [SECOND], scopes: ['BOOKING_READ', 'PROFILE_READ'] });
  });
});

describe('held changes (docs/rules.md#client-changes, docs/rules.md#review-versions)', () => {
  it('approving joins the held additions to the live configuration, clears them, and audits the decision and the new scopes', async ({ world }) => {
    const { owner, admin, id } = await approvedClient(world);
    const held = await updateClient(world.ctx, id, owner, { redirectUris: [CALLBACK, SECOND], scopes: ['PROFILE_READ', 'BOOKING_READ'] });
    world.advance(1000);
    const approved = await approveHeldChanges(world.ctx, id, admin, { expectedVersion: held.client.version });
    expect(approved).toMatchObject({
      state: 'approved',
      redirectUris: [CALLBACK, SECOND],
      scopes: ['BOOKING_READ', 'PROFILE_READ'],
      proposedRedirectUris: [],
      proposedScopes: [],
      reviewedBy: admin,
      reviewedAt: world.now(),
      version: held.client.version + 1,
    });
    expect(await world.oauth.findClient(id)).toMatchObject({ redirectUris: [CALLBACK, SECOND], scopes: ['BOOKING_READ', 'PROFILE_READ'] });
    const last = (await events(world, id)).slice(-2);
    expect(last.map((e) => [e.type, e.data])).toEqual([
      ['client.approved', { changes: { redirectUris: [SECOND], scopes: ['BOOKING_READ'] } }],
      ['client.scopes_changed', { from: 'PROFILE_READ', to: 'BOOKING_READ PROFILE_READ' }],
    ]);
  });

  it('with nothing held there is nothing to approve or decline', async ({ world }) => {
    const { admin, id, client } = await approvedClient(world);
    await expect(approveHeldChanges(world.ctx, id, admin)).rejects.toMatchObject({ kind: 'conflict', message: 'this client has no changes awaiting review' });
    await expect(rejectHeldChanges(world.ctx, id, admin, 'no')).rejects.toMatchObject({ kind: 'conflict', message: 'this client has no changes awaiting review' });
    expect((await requireClient(world.ctx, id)).version).toBe(client.version);
  });

  it('approving may not take a client past 10 redirect URIs (docs/rules.md#redirect-uris)', async ({ world }) => {
    const uris = (tag: string, n: number) => Array.from({ length: n }, (_, i) => `https://app.example.com/${tag}/${i}`);
    const { admin, id } = await approvedClient(world, { redirectUris: uris('live', 5) });
    // A developer's edit cannot hold more than 10 with the live ones (its list is the whole
    // desired list); a held change stored otherwise, as the store allows, meets the same limit.
    await world.ctx.stores.clients.update(id, { proposedRedirectUris: uris('new', 6) }, { raiseVersion: true });
    await expect(approveHeldChanges(world.ctx, id, admin)).rejects.toMatchObject({ kind: 'conflict', message: 'approving would give the client more than 10 redirect URIs' });
    expect(await requireClient(world.ctx, id)).toMatchObject({ redirectUris: uris('live', 5), proposedRedirectUris: uris('new', 6) });
    await world.ctx.stores.clients.update(id, { proposedRedirectUris: [...uris('live', 2), ...uris('new', 5)] }, { raiseVersion: true });
    expect((await approveHeldChanges(world.ctx, id, admin)).redirectUris).toEqual([...uris('live', 5), ...uris('new', 5)]);
  });

  it('declining needs a reason; the client keeps its approved configuration and the developer sees the reason', async ({ world }) => {
    const { owner, admin, id } = await approvedClient(world);
    await updateClient(world.ctx, id, owner, { redirectUris: [CALLBACK, SECOND] });
    await expect(rejectHeldChanges(world.ctx, id, admin, '  ')).rejects.toMatchObject({ kind: 'validation', field: 'reason' });
    await expect(rejectHeldChanges(world.ctx, id, admin, 'x'.repeat(1001))).rejects.toMatchObject({ kind: 'validation', field: 'reason' });
    expect((await requireClient(world.ctx, id)).proposedRedirectUris).toEqual([SECOND]);
    const declined = await rejectHeldChanges(world.ctx, id, admin, 'second.example is not yours');
    expect(declined).toMatchObject({ state: 'approved', redirectUris: [CALLBACK], proposedRedirectUris: [], reviewNote: 'second.example is not yours', reviewedBy: admin });
    expect((await events(world, id)).at(-1)).toMatchObject({ type: 'client.rejected', data: { changes: { redirectUris: [SECOND], scopes: [] }, reason: 'second.example is not yours' } });
  });
});

describe('legacy clients and their migration in place (docs/rules.md#legacy-clients)', () => {
  async function legacy(world: PlatformWorld) {
    const owner = await world.user();
    const { client } = await importLegacyClient(world.ctx, { ownerId: owner, name: 'Old Sync', kind: 'confidential', redirectUris: [CALLBACK] });
    return { owner, id: client.clientId };
  }

  it('saving scopes migrates the client in place, at once and not held though it is approved: same id, same secret', async ({ world }) => {
    const { owner, id } = await legacy(world);
    const secretsBefore = (await world.oauth.findClientWithSecrets(id))?.secrets;
    const result = await migrateLegacyClient(world.ctx, id, owner, ['PROFILE_READ', 'BOOKING_READ']);
    expect(result).toMatchObject({ migrated: true, held: { redirectUris: [], scopes: [] } });
    expect(result.client).toMatchObject({ clientId: id, state: 'approved', legacy: false, scopes: ['BOOKING_READ', 'PROFILE_READ'] });
    expect((await world.oauth.findClientWithSecrets(id))?.secrets).toEqual(secretsBefore);
    expect((await events(world, id)).find((e) => e.type === 'client.migrated')?.data).toEqual({ scopes: 'BOOKING_READ PROFILE_READ', scopelessRequests: 0 });
  });

  it('a recent authorization request without scope needs a confirmation; the count looks back 30 days only', async ({ world }) => {
    const { owner, id } = await legacy(world);
    await world.oauth.recordAuthorizationRequest(id, owner, false, world.now());
    await world.oauth.recordAuthorizationRequest(id, owner, true, world.now());
    // 30 days old to the millisecond: still inside the window.
    world.advance(SCOPELESS_WINDOW_MS);
    expect(await countScopelessRequests(world.ctx, id)).toBe(1);
    await expect(migrateLegacyClient(world.ctx, id, owner, ['PROFILE_READ'])).rejects.toMatchObject({
      kind: 'conflict',
      field: 'confirm',
      message: expect.stringMatching(/^1 authorization request of this client in the last 30 days came without scope; after the migration such requests fail/),
    });
    expect((await requireClient(world.ctx, id)).legacy).toBe(true);
    expect((await events(world, id)).map((e) => e.type)).not.toContain('client.migrated');
    // A moment later it is out of the window, and nothing asks for a confirmation.
    world.advance(1);
    expect(await countScopelessRequests(world.ctx, id)).toBe(0);
    expect((await migrateLegacyClient(world.ctx, id, owner, ['PROFILE_READ'])).migrated).toBe(true);
  });

  it('with the confirmation the migration goes ahead, and the audit records how many requests came without scope', async ({ world }) => {
    const { owner, id } = await legacy(world);
    await world.oauth.recordAuthorizationRequest(id, owner, false, world.now());
    await world.oauth.recordAuthorizationRequest(id, null, false, world.now());
    await expect(migrateLegacyClient(world.ctx, id, owner, ['PROFILE_READ'])).rejects.toMatchObject({ message: expect.stringMatching(/^2 authorization requests /) });
    const result = await migrateLegacyClient(world.ctx, id, owner, ['PROFILE_READ'], { confirmScopeless: true });
    expect(result.client.scopes).toEqual(['PROFILE_READ']);
    expect((await events(world, id)).find((e) => e.type === 'client.migrated')).toMatchObject({ actorId: owner, data: { scopes: 'PROFILE_READ', scopelessRequests: 2 } });
  });

  it('a client that has scopes is not migrated again: its scopes are edited instead', async ({ world }) => {
    const { owner, id } = await legacy(world);
    await migrateLegacyClient(world.ctx, id, owner, ['PROFILE_READ']);
    await expect(migrateLegacyClient(world.ctx, id, owner, ['BOOKING_READ'])).rejects.toMatchObject({ kind: 'conflict', message: expect.stringContaining('already has scopes') });
    // Now scope-enforced and approved, a widening is held like any other.
    expect((await updateClient(world.ctx, id, owner, { scopes: ['PROFILE_READ', 'BOOKING_READ'] })).held.scopes).toEqual(['BOOKING_READ']);
  });

  it('a migration names at least one known scope', async ({ world }) => {
    const { owner, id } = await legacy(world);
    await expect(migrateLegacyClient(world.ctx, id, owner, [])).rejects.toMatchObject({ kind: 'validation', field: 'scopes' });
    expect((await requireClient(world.ctx, id)).legacy).toBe(true);
  });
});
