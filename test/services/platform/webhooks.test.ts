// The webhooks service's rules (src/platform/webhooks/service.ts), called in process, for all
// its owners: a user, an organization and an event type. What only HTTP shows (scopes, the
// envelope, the answer's shape, the booking scope an event type's webhook also needs) is
// tested in test/platform.
import { describe, expect } from 'vitest';
import { createEventType } from '../../../src/platform/event-types/service.ts';
import {
  createWebhook,
  deleteWebhook,
  deleteWebhooks,
  findWebhook,
  listDeliveries,
  listWebhooks,
  redeliver,
  updateWebhook,
  type WebhookScope,
} from '../../../src/platform/webhooks/service.ts';
import { it, type PlatformWorld } from './world.ts';

/** The outbound policy of production (no private addresses), over a resolver that knows two names. */
const outbound = {
  outbound: {
    allowPrivate: false,
    resolve: async (host: string) => (host === 'hooks.example.com' ? ['93.184.216.34'] : host === 'intranet.example.com' ? ['10.0.0.7'] : []),
  },
};
const hook = { subscriberUrl: 'https://HOOKS.example.com/in', triggers: ['BOOKING_CREATED'] };

/** A user's event type, and the scope of its webhooks. */
async function eventTypeOf(world: PlatformWorld, userId: string, slug = 'intro'): Promise<WebhookScope & { eventTypeId: string }> {
  const { eventType } = await createEventType(world.ctx, { userId }, { title: 'Intro', slug, lengthInMinutes: 30 });
  return { eventTypeId: eventType.id, owner: { userId } };
}

describe('webhooks', () => {
  it("a new webhook is its owner's, on, with a whsec_ secret of Gatehouse's making that its deliveries are signed with", async ({ world }) => {
    const userId = await world.user();
    const { created, secret } = await createWebhook(world.ctx, outbound, { userId }, hook);
    expect(created).toMatchObject({ ownerId: userId, organizationId: null, eventTypeId: null, subscriberUrl: 'https://hooks.example.com/in', active: true, payloadTemplate: null, disabledReason: null, createdAt: world.now() });
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/);
    expect(await findWebhook(world.ctx, { userId }, created.id)).toEqual(created);

    await world.ctx.stores.webhookDeliveries.enqueue([{ webhookId: created.id }], 'BOOKING_CREATED', { uid: 'b1' }, world.now());
    const [claimed] = await world.ctx.stores.webhookDeliveries.claimDue(world.now(), world.now() + 60_000, 10);
    expect(claimed).toMatchObject({ destination: { webhookId: created.id }, url: 'https://hooks.example.com/in', secret });
  });

  it("a chosen secret is refused naming the field, for every owner, on create and on change", async ({ world }) => {
    const userId = await world.user();
    const organizationId = await world.organization(userId);
    const { created } = await createWebhook(world.ctx, outbound, { userId }, hook);
    for (const scope of [{ userId }, { organizationId }, await eventTypeOf(world, userId)]) {
      await expect(createWebhook(world.ctx, outbound, scope, { ...hook, secret: 'whsec_mine' })).rejects.toMatchObject({
        kind: 'validation',
        message: 'secret: Gatehouse makes the signing secret (whsec_…) and returns it in the creation answer; leave secret out',
      });
    }
    await expect(updateWebhook(world.ctx, outbound, { userId }, created.id, { secret: 'whsec_mine' })).rejects.toMatchObject({ kind: 'validation', message: expect.stringMatching(/^secret: /) });
    expect((await listWebhooks(world.ctx, { userId }, 10, 0)).map((w) => w.id)).toEqual([created.id]);
    expect(await listWebhooks(world.ctx, { organizationId }, 10, 0)).toEqual([]);
  });

  it('docs/rules.md#webhooks: a subscriber on a private address is refused naming the field, when created or moved, and takes no id', async ({ world }) => {
    const userId = await world.user();
    const first = (await createWebhook(world.ctx, outbound, { userId }, hook)).created;
    for (const subscriberUrl of ['https://intranet.example.com/in', 'https://127.0.0.1/in', 'http://hooks.example.com/in']) {
      await expect(createWebhook(world.ctx, outbound, { userId }, { ...hook, subscriberUrl })).rejects.toMatchObject({ kind: 'validation', message: expect.stringMatching(/^subscriberUrl: /) });
    }
    await expect(updateWebhook(world.ctx, outbound, { userId }, first.id, { subscriberUrl: 'https://intranet.example.com/in', active: false })).rejects.toMatchObject({
      kind: 'validation',
      message: 'subscriberUrl: intranet.example.com resolves to a non-public address: webhooks and calendar feeds must be on a public address',
    });
    expect(await findWebhook(world.ctx, { userId }, first.id)).toMatchObject({ subscriberUrl: 'https://hooks.example.com/in', active: true });
    const second = (await createWebhook(world.ctx, outbound, { userId }, hook)).created;
    expect(Number(second.id)).toBe(Number(first.id) + 1);

    // An organization's webhooks take the same check, when created or moved.
    const organizationId = await world.organization(userId);
    await expect(createWebhook(world.ctx, outbound, { organizationId }, { ...hook, subscriberUrl: 'https://192.168.0.10/hook' })).rejects.toMatchObject({
      kind: 'validation',
      message: expect.stringMatching(/^subscriberUrl: 192\.168\.0\.10 is a private address/),
    });
    const theirs = (await createWebhook(world.ctx, outbound, { organizationId }, hook)).created;
    await expect(updateWebhook(world.ctx, outbound, { organizationId }, theirs.id, { subscriberUrl: 'https://[fe80::abcd]/hook' })).rejects.toMatchObject({ message: expect.stringMatching(/^subscriberUrl: .*link-local/) });
    expect(await findWebhook(world.ctx, { organizationId }, theirs.id)).toMatchObject({ subscriberUrl: 'https://hooks.example.com/in' });
  });

  it("another owner's webhook is as absent as a missing one, for read, change, delete, deliveries and redelivery", async ({ world }) => {
    const alice = await world.user();
    const bob = await world.user();
    const organizationId = await world.organization(alice);
    const hers = (await createWebhook(world.ctx, outbound, { userId: alice }, hook)).created;
    const org = (await createWebhook(world.ctx, outbound, { organizationId }, hook)).created;
    const [deliveryId] = await world.ctx.stores.webhookDeliveries.enqueue([{ webhookId: hers.id }], 'BOOKING_CREATED', {}, world.now());
    for (const attempt of [
      findWebhook(world.ctx, { userId: bob }, hers.id),
      updateWebhook(world.ctx, outbound, { userId: bob }, hers.id, { active: false }),
      deleteWebhook(world.ctx, { userId: bob }, hers.id),
      listDeliveries(world.ctx, { userId: bob }, hers.id, 10, 0),
      redeliver(world.ctx, { userId: bob }, hers.id, deliveryId!),
      // An organization's webhook is not its owner's own.
      findWebhook(world.ctx, { userId: alice }, org.id),
      findWebhook(world.ctx, { organizationId }, hers.id),
    ]) {
      await expect(attempt).rejects.toMatchObject({ kind: 'not_found', message: 'no such webhook' });
    }
    expect(await findWebhook(world.ctx, { userId: alice }, hers.id)).toEqual(hers);
    expect(await listDeliveries(world.ctx, { userId: alice }, hers.id, 10, 0)).toHaveLength(1);
  });

  it('a change moves updatedAt; turning a webhook Gatehouse turned off on again clears the reason', async ({ world }) => {
    const organizationId = await world.organization(await world.user());
    const { created } = await createWebhook(world.ctx, outbound, { organizationId }, hook);
    world.advance(60_000);
    await world.ctx.stores.webhookDeliveries.disable(created.id, 'failing for 5 days', world.now());
    expect((await findWebhook(world.ctx, { organizationId }, created.id)).disabledReason).toBe('failing for 5 days');
    world.advance(60_000);
    const changed = await updateWebhook(world.ctx, outbound, { organizationId }, created.id, { active: true, triggers: ['BOOKING_CANCELLED'], payloadTemplate: '{"x":1}' });
    expect(changed).toMatchObject({ organizationId, active: true, disabledReason: null, triggers: ['BOOKING_CANCELLED'], payloadTemplate: '{"x":1}', createdAt: world.now() - 120_000, updatedAt: world.now() });
  });

  it('a delete answers what the webhook was, and leaves it gone', async ({ world }) => {
    const userId = await world.user();
    const { created } = await createWebhook(world.ctx, outbound, { userId }, hook);
    expect(await deleteWebhook(world.ctx, { userId }, created.id)).toEqual(created);
    await expect(deleteWebhook(world.ctx, { userId }, created.id)).rejects.toMatchObject({ kind: 'not_found', message: 'no such webhook' });
    expect(await listWebhooks(world.ctx, { userId }, 10, 0)).toEqual([]);
  });

  it("a redelivery is a new message with the same body, due now; another webhook's delivery is absent", async ({ world }) => {
    const userId = await world.user();
    const first = (await createWebhook(world.ctx, outbound, { userId }, hook)).created;
    const other = (await createWebhook(world.ctx, outbound, { userId }, hook)).created;
    const [id, othersId] = await world.ctx.stores.webhookDeliveries.enqueue([{ webhookId: first.id }, { webhookId: other.id }], 'BOOKING_CREATED', { uid: 'b1' }, world.now());
    world.advance(60_000);
    const copy = await redeliver(world.ctx, { userId }, first.id, id!);
    const [original] = await listDeliveries(world.ctx, { userId }, first.id, 10, 1);
    expect(copy.id).not.toBe(id);
    expect(copy).toMatchObject({ destination: { webhookId: first.id }, event: 'BOOKING_CREATED', payload: original!.payload, status: 'pending', attempts: 0, createdAt: world.now() });
    expect((await listDeliveries(world.ctx, { userId }, first.id, 10, 0)).map((d) => d.id)).toEqual([copy.id, id]);
    await expect(redeliver(world.ctx, { userId }, first.id, othersId!)).rejects.toMatchObject({ kind: 'not_found', message: 'no such delivery' });
    expect(await listDeliveries(world.ctx, { userId }, other.id, 10, 0)).toHaveLength(1);
  });
});

describe("an event type's webhooks", () => {
  it("are reached through the event type as its owner reaches it: another's event type is no such event type, whichever webhook is asked", async ({ world }) => {
    const alice = await world.user();
    const bob = await world.user();
    const teamId = await world.team(alice);
    const hers = await eventTypeOf(world, alice);
    const { eventType: teams } = await createEventType(world.ctx, { teamId }, { title: 'Team', slug: 'team', lengthInMinutes: 30 });
    const { created } = await createWebhook(world.ctx, outbound, hers, hook);
    expect(created).toMatchObject({ eventTypeId: hers.eventTypeId, ownerId: null, organizationId: null });
    const bobs = { eventTypeId: hers.eventTypeId, owner: { userId: bob } };
    for (const attempt of [
      listWebhooks(world.ctx, bobs, 10, 0),
      createWebhook(world.ctx, outbound, bobs, hook),
      findWebhook(world.ctx, bobs, created.id),
      deleteWebhooks(world.ctx, bobs),
      // A team's event type is reached through the team, not by its owner as a person.
      createWebhook(world.ctx, outbound, { eventTypeId: teams.id, owner: { userId: alice } }, hook),
    ]) {
      await expect(attempt).rejects.toMatchObject({ kind: 'not_found', message: 'no such event type' });
    }
    const teamHook = (await createWebhook(world.ctx, outbound, { eventTypeId: teams.id, owner: { teamId } }, hook)).created;
    expect(teamHook.eventTypeId).toBe(teams.id);
    expect((await listWebhooks(world.ctx, hers, 10, 0)).map((w) => w.id)).toEqual([created.id]);
  });

  it("a webhook of another event type, or the owner's own, is not the event type's", async ({ world }) => {
    const userId = await world.user();
    const first = await eventTypeOf(world, userId);
    const second = await eventTypeOf(world, userId, 'second');
    const firsts = (await createWebhook(world.ctx, outbound, first, hook)).created;
    const own = (await createWebhook(world.ctx, outbound, { userId }, hook)).created;
    for (const attempt of [
      findWebhook(world.ctx, second, firsts.id),
      updateWebhook(world.ctx, outbound, second, firsts.id, { active: false }),
      deleteWebhook(world.ctx, second, firsts.id),
      listDeliveries(world.ctx, second, firsts.id, 10, 0),
      findWebhook(world.ctx, first, own.id),
    ]) {
      await expect(attempt).rejects.toMatchObject({ kind: 'not_found', message: 'no such webhook' });
    }
    expect(await findWebhook(world.ctx, first, firsts.id)).toEqual(firsts);
    expect((await listWebhooks(world.ctx, { userId }, 10, 0)).map((w) => w.id)).toEqual([own.id]);
  });

  it("deleting them all counts what it deleted and leaves other event types' and the owner's own", async ({ world }) => {
    const userId = await world.user();
    const first = await eventTypeOf(world, userId);
    const second = await eventTypeOf(world, userId, 'second');
    await createWebhook(world.ctx, outbound, first, hook);
    await createWebhook(world.ctx, outbound, first, { ...hook, triggers: ['BOOKING_CANCELLED'] });
    const kept = (await createWebhook(world.ctx, outbound, second, hook)).created;
    const own = (await createWebhook(world.ctx, outbound, { userId }, hook)).created;
    expect(await deleteWebhooks(world.ctx, first)).toBe(2);
    expect(await listWebhooks(world.ctx, first, 10, 0)).toEqual([]);
    expect((await listWebhooks(world.ctx, second, 10, 0)).map((w) => w.id)).toEqual([kept.id]);
    expect((await listWebhooks(world.ctx, { userId }, 10, 0)).map((w) => w.id)).toEqual([own.id]);
    expect(await deleteWebhooks(world.ctx, first)).toBe(0);
  });
});
