// The routing forms service's rules (src/platform/routing-forms/service.ts), called in process:
// what only HTTP shows (scopes, the envelope, the delivery of FORM_SUBMITTED) is tested in
// test/platform.
import { describe, expect } from 'vitest';
import {
  createForm,
  createResponse,
  deleteResponse,
  findForm,
  listForms,
  listResponses,
  updateResponse,
  type FormField,
  type FormScope,
} from '../../../src/platform/routing-forms/service.ts';
import type { PlatformContext } from '../../../src/platform/stores.ts';
import { newSigningSecret } from '../../../src/services/webhooks/signing.ts';
import { it, T0, type PlatformWorld } from './world.ts';

const fields: FormField[] = [
  { id: 'email', label: 'Email', type: 'email', required: true },
  { id: 'size', label: 'Company size', type: 'select', options: ['1-10', '11-50'] },
  { id: 'topics', label: 'Topics', type: 'multiselect', options: ['sales', 'support'] },
  { id: 'seats', label: 'Seats', type: 'number' },
  { id: 'phone', label: 'Phone', type: 'phone' },
  { id: 'note', label: 'Note', type: 'text' },
  { id: 'story', label: 'Story', type: 'textarea' },
];

/** An owner, their organization and a team inside it; and another team outside it. */
async function setting(world: PlatformWorld) {
  const owner = await world.user();
  const organizationId = await world.organization(owner);
  const teamId = await world.team(owner, { organizationId });
  const otherTeamId = await world.team(owner);
  return { owner, organizationId, teamId, otherTeamId, team: { teamId } as FormScope, org: { organizationId } as FormScope };
}

/** A webhook of the organization hearing FORM_SUBMITTED, as POST /v2/organizations/:orgId/webhooks keeps one. */
async function orgWebhook(ctx: PlatformContext, organizationId: string): Promise<string> {
  const id = await ctx.stores.ids.next('webhooks');
  const at = ctx.clock();
  await ctx.stores.webhooks.insert(
    { id, ownerId: null, organizationId, eventTypeId: null, subscriberUrl: 'https://hooks.example.com/forms', triggers: ['FORM_SUBMITTED'], active: true, payloadTemplate: null, disabledReason: null, createdAt: at, updatedAt: at },
    newSigningSecret(),
  );
  return id;
}

/** The events in the webhook's outbox, oldest first, as they will be sent. */
async function events(ctx: PlatformContext, webhookId: string) {
  const deliveries = await ctx.stores.webhookDeliveries.list({ webhookId }, 50, 0);
  return deliveries.reverse().map((d) => ({ event: d.event, body: JSON.parse(d.payload) as { type: string; data: Record<string, unknown> } }));
}

/** The context, but with an outbox that refuses every event written inside a transaction. */
function refusingEvents(ctx: PlatformContext): PlatformContext {
  const refused = async (): Promise<string[]> => {
    throw new Error('the outbox refused the event');
  };
  return {
    ...ctx,
    stores: { ...ctx.stores, transaction: (fn) => ctx.stores.transaction((tx) => fn({ ...tx, webhookDeliveries: { ...tx.webhookDeliveries, enqueue: refused } })) },
  };
}

describe('routing forms', () => {
  it("a form is its team's or its organization's, with its name trimmed and defaults for what was left out", async ({ world }) => {
    const { team, org, teamId, organizationId } = await setting(world);
    const ofTeam = await createForm(world.ctx, team, { name: ' Intake ', fields });
    expect(ofTeam).toEqual({ id: ofTeam.id, teamId, organizationId: null, name: 'Intake', description: '', fields, disabled: false, createdAt: T0, updatedAt: T0 });
    const ofOrg = await createForm(world.ctx, org, { name: 'Leads', description: 'Sales leads', fields, disabled: true });
    expect(ofOrg).toMatchObject({ teamId: null, organizationId, description: 'Sales leads', disabled: true });
    expect(await findForm(world.ctx, team, ofTeam.id)).toEqual(ofTeam);
  });

  it('a field id used twice, a choice without options or options on another field is refused naming the field, and nothing is kept', async ({ world }) => {
    const { team } = await setting(world);
    const refusals: [FormField[], string][] = [
      [[fields[0]!, { ...fields[5]!, id: 'email' }], 'fields.1.id: "email" is used twice'],
      [[{ id: 'size', label: 'Size', type: 'select' }], 'fields.0.options: a select field needs options'],
      [[fields[0]!, { id: 'topics', label: 'Topics', type: 'multiselect' }], 'fields.1.options: a multiselect field needs options'],
      [[{ id: 'note', label: 'Note', type: 'text', options: ['a'] }], 'fields.0.options: only select and multiselect fields have options'],
    ];
    for (const [bad, message] of refusals) await expect(createForm(world.ctx, team, { name: 'Bad', fields: bad })).rejects.toMatchObject({ kind: 'validation', message });
    expect(await listForms(world.ctx, team, 10, 0)).toEqual([]);
  });

  it("an organization sees its own forms and its teams'; a team sees only its own; another team's form is as absent as a missing one", async ({ world }) => {
    const { team, org, otherTeamId } = await setting(world);
    const other: FormScope = { teamId: otherTeamId };
    const ofTeam = await createForm(world.ctx, team, { name: 'Team', fields });
    const ofOrg = await createForm(world.ctx, org, { name: 'Org', fields });
    const ofOther = await createForm(world.ctx, other, { name: 'Other', fields });
    expect((await listForms(world.ctx, org, 10, 0)).map((f) => f.id).sort()).toEqual([ofTeam.id, ofOrg.id].sort());
    expect((await listForms(world.ctx, team, 10, 0)).map((f) => f.id)).toEqual([ofTeam.id]);
    const response = await createResponse(world.ctx, other, ofOther.id, { email: 'lead@example.com' });
    for (const attempt of [
      findForm(world.ctx, team, ofOrg.id),
      findForm(world.ctx, org, ofOther.id),
      listResponses(world.ctx, team, ofOther.id, 10, 0),
      createResponse(world.ctx, team, ofOther.id, { email: 'lead@example.com' }),
      updateResponse(world.ctx, team, ofOther.id, response.id, { email: 'other@example.com' }),
      deleteResponse(world.ctx, org, ofOther.id, response.id),
    ]) {
      await expect(attempt).rejects.toMatchObject({ kind: 'not_found', message: 'no such routing form' });
    }
    expect(await listResponses(world.ctx, other, ofOther.id, 10, 0)).toEqual([response]);
  });
});

describe('routing form responses', () => {
  it('every answer must fit its field, required fields be answered and nothing else be: the field is named, and nothing is kept', async ({ world }) => {
    const { team } = await setting(world);
    const form = await createForm(world.ctx, team, { name: 'Intake', fields });
    const email = 'lead@example.com';
    const refusals: [Record<string, string | number | string[]>, string][] = [
      [{ email, budget: 100 }, 'response.budget: is not a field of this form'],
      [{ size: '1-10' }, 'response.email: is required'],
      [{ email: '' }, 'response.email: is required'],
      [{ email: 'not-an-address' }, 'response.email: must be a valid email'],
      [{ email, size: '500+' }, 'response.size: must be one of: 1-10, 11-50'],
      [{ email, topics: ['sales', 'billing'] }, 'response.topics: must be a list of: sales, support'],
      [{ email, seats: '12' }, 'response.seats: must be a valid number'],
      [{ email, phone: '0170 1234567' }, 'response.phone: must be a valid phone'],
      [{ email, note: 'x'.repeat(501) }, 'response.note: must be a valid text'],
    ];
    for (const [answers, message] of refusals) await expect(createResponse(world.ctx, team, form.id, answers)).rejects.toMatchObject({ kind: 'validation', message });
    expect(await listResponses(world.ctx, team, form.id, 10, 0)).toEqual([]);
    const answers = { email, size: '11-50', topics: ['support'], seats: 12, phone: '+491701234567', note: 'x'.repeat(500), story: 'y'.repeat(2000) };
    expect((await createResponse(world.ctx, team, form.id, answers)).answers).toEqual(answers);
  });

  it("a response lands with its FORM_SUBMITTED event for the organization's webhooks, a team's form's and the organization's own", async ({ world }) => {
    const { team, org, teamId, organizationId } = await setting(world);
    const webhookId = await orgWebhook(world.ctx, organizationId);
    const ofTeam = await createForm(world.ctx, team, { name: 'Intake', fields });
    const ofOrg = await createForm(world.ctx, org, { name: 'Leads', fields });
    world.advance(60_000);
    const first = await createResponse(world.ctx, team, ofTeam.id, { email: 'lead@example.com' });
    expect(first).toEqual({ id: first.id, formId: ofTeam.id, answers: { email: 'lead@example.com' }, createdAt: world.now(), updatedAt: world.now() });
    expect(await listResponses(world.ctx, org, ofTeam.id, 10, 0)).toEqual([first]);
    const at = new Date(world.now()).toISOString();
    // A second later: the outbox lists by time, and two messages of one instant in no set order.
    world.advance(1000);
    const second = await createResponse(world.ctx, org, ofOrg.id, { email: 'other@example.com', seats: 3 });
    const later = new Date(world.now()).toISOString();
    expect(await events(world.ctx, webhookId)).toEqual([
      {
        event: 'FORM_SUBMITTED',
        body: {
          type: 'FORM_SUBMITTED',
          timestamp: at,
          data: { formId: ofTeam.id, formName: 'Intake', teamId: Number(teamId), organizationId: null, responseId: Number(first.id), answers: { email: 'lead@example.com' }, createdAt: at },
        },
      },
      {
        event: 'FORM_SUBMITTED',
        body: {
          type: 'FORM_SUBMITTED',
          timestamp: later,
          data: { formId: ofOrg.id, formName: 'Leads', teamId: null, organizationId: Number(organizationId), responseId: Number(second.id), answers: { email: 'other@example.com', seats: 3 }, createdAt: later },
        },
      },
    ]);
  });

  it('a response whose event cannot be written is not kept either: one transaction', async ({ world }) => {
    const { team, organizationId } = await setting(world);
    const webhookId = await orgWebhook(world.ctx, organizationId);
    const form = await createForm(world.ctx, team, { name: 'Intake', fields });
    await expect(createResponse(refusingEvents(world.ctx), team, form.id, { email: 'lead@example.com' })).rejects.toThrow('the outbox refused the event');
    expect(await listResponses(world.ctx, team, form.id, 10, 0)).toEqual([]);
    expect(await events(world.ctx, webhookId)).toEqual([]);
  });

  it("a change is checked against the form's fields and moves updatedAt; a response of another form is 404", async ({ world }) => {
    const { team } = await setting(world);
    const form = await createForm(world.ctx, team, { name: 'Intake', fields });
    const otherForm = await createForm(world.ctx, team, { name: 'Other', fields });
    const created = await createResponse(world.ctx, team, form.id, { email: 'lead@example.com' });
    world.advance(60_000);
    await expect(updateResponse(world.ctx, team, form.id, created.id, { email: 'lead@example.com', size: 'huge' })).rejects.toMatchObject({ kind: 'validation', message: 'response.size: must be one of: 1-10, 11-50' });
    await expect(updateResponse(world.ctx, team, otherForm.id, created.id, { email: 'x@example.com' })).rejects.toMatchObject({ kind: 'not_found', message: 'no such routing form response' });
    expect((await listResponses(world.ctx, team, form.id, 10, 0))[0]).toEqual(created);
    const changed = await updateResponse(world.ctx, team, form.id, created.id, { email: 'new@example.com', seats: 2 });
    expect(changed).toEqual({ ...created, answers: { email: 'new@example.com', seats: 2 }, updatedAt: T0 + 60_000 });
    expect(await listResponses(world.ctx, team, form.id, 10, 0)).toEqual([changed]);
  });

  it('a deleted response is gone, and deleting it again is 404', async ({ world }) => {
    const { team } = await setting(world);
    const form = await createForm(world.ctx, team, { name: 'Intake', fields });
    const kept = await createResponse(world.ctx, team, form.id, { email: 'kept@example.com' });
    const gone = await createResponse(world.ctx, team, form.id, { email: 'gone@example.com' });
    expect(await deleteResponse(world.ctx, team, form.id, gone.id)).toBe(gone.id);
    expect(await listResponses(world.ctx, team, form.id, 10, 0)).toEqual([kept]);
    await expect(deleteResponse(world.ctx, team, form.id, gone.id)).rejects.toMatchObject({ kind: 'not_found', message: 'no such routing form response' });
  });
});
