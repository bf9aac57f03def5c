// The rules of routing forms of a team or an organization and of their responses, and every
// store call they make: a form's fields are unique and only choice fields have options, each
// response is checked against the form's fields as they are now, and a new response lands with
// its FORM_SUBMITTED webhook event (docs/rules.md#webhooks). A form outside the caller's scope
// is as absent as a missing one.
import { publishEvent, randomId } from '../authorization-server.ts';
import { invalid, iso, notFound } from '../input.ts';
import { numbered, numberedOrNull } from '../numbered-ids.ts';
import type { PlatformContext, PlatformStores } from '../stores.ts';
import type { FormAnswers, FormField, FormResponse, FormScope, RoutingForm } from './store.ts';

export type { FormAnswers, FormField, FormResponse, FormScope, RoutingForm } from './store.ts';

/** What a caller may set of a new form. */
export interface NewForm {
  name: string;
  description?: string;
  fields: FormField[];
  disabled?: boolean;
}

/** FORM_SUBMITTED (docs/integrating.md#webhooks): a routing form of a team or an organization received a response. */
function recordFormSubmitted(stores: PlatformStores, form: RoutingForm, response: FormResponse): Promise<void> {
  const owner = { hostId: null, teamId: form.teamId, organizationId: form.organizationId };
  const data = { formId: form.id, formName: form.name, teamId: numberedOrNull(form.teamId), organizationId: numberedOrNull(form.organizationId), responseId: numbered(response.id), answers: response.answers, createdAt: iso(response.createdAt) };
  return publishEvent(stores, 'FORM_SUBMITTED', owner, data, response.createdAt);
}

function checkFields(fields: FormField[]): void {
  const seen = new Set<string>();
  fields.forEach((f, i) => {
    if (seen.has(f.id)) throw invalid(`fields.${i}.id`, `"${f.id}" is used twice`);
    seen.add(f.id);
    const choice = f.type === 'select' || f.type === 'multiselect';
    if (choice && !f.options) throw invalid(`fields.${i}.options`, `a ${f.type} field needs options`);
    if (!choice && f.options) throw invalid(`fields.${i}.options`, `only select and multiselect fields have options`);
  });
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const PHONE = /^\+[1-9][0-9]{6,14}$/;

/** Each answer must fit its field; required fields must be answered; nothing else may be. */
function checkAnswers(fields: FormField[], answers: FormAnswers): void {
  const byId = new Map(fields.map((f) => [f.id, f]));
  for (const key of Object.keys(answers)) if (!byId.has(key)) throw invalid(`response.${key}`, 'is not a field of this form');
  for (const f of fields) {
    const value = answers[f.id];
    const at = `response.${f.id}`;
    if (value === undefined || value === '' || (Array.isArray(value) && value.length === 0)) {
      if (f.required) throw invalid(at, 'is required');
      continue;
    }
    const ok =
      f.type === 'number' ? typeof value === 'number' :
      f.type === 'multiselect' ? Array.isArray(value) && value.every((v) => f.options!.includes(v)) :
      f.type === 'select' ? typeof value === 'string' && f.options!.includes(value) :
      f.type === 'email' ? typeof value === 'string' && EMAIL.test(value) :
      f.type === 'phone' ? typeof value === 'string' && PHONE.test(value) :
      typeof value === 'string' && (f.type === 'textarea' || value.length <= 500);
    if (!ok) throw invalid(at, f.options ? `must be ${f.type === 'multiselect' ? 'a list of' : 'one of'}: ${f.options.join(', ')}` : `must be a valid ${f.type}`);
  }
}

/** The scope's forms: a team's, or an organization's own and its teams'. */
export function listForms(ctx: PlatformContext, scope: FormScope, limit: number, offset: number): Promise<RoutingForm[]> {
  return ctx.stores.api.routingForms.list(scope, limit, offset);
}

/** A new form of the team or the organization the scope names, its fields checked. */
export async function createForm(ctx: PlatformContext, scope: FormScope, input: NewForm): Promise<RoutingForm> {
  checkFields(input.fields);
  const now = ctx.clock();
  const created: RoutingForm = {
    id: randomId(),
    teamId: 'teamId' in scope ? scope.teamId : null,
    organizationId: 'organizationId' in scope ? scope.organizationId : null,
    name: input.name.trim(),
    description: input.description ?? '',
    fields: input.fields,
    disabled: input.disabled ?? false,
    createdAt: now,
    updatedAt: now,
  };
  await ctx.stores.api.routingForms.insert(created);
  return created;
}

/** A form of the scope, or 404: another team's form is as absent as a missing one. */
export async function findForm(ctx: PlatformContext, scope: FormScope, id: string): Promise<RoutingForm> {
  const found = await ctx.stores.api.routingForms.find(scope, id);
  if (found === undefined) throw notFound('routing form');
  return found;
}

/** A response of a form of the scope, with its form; 404 for either missing. */
async function findResponse(ctx: PlatformContext, scope: FormScope, formId: string, responseId: string): Promise<{ form: RoutingForm; response: FormResponse }> {
  const form = await findForm(ctx, scope, formId);
  const response = await ctx.stores.api.routingForms.findResponse(form.id, responseId);
  if (response === undefined) throw notFound('routing form response');
  return { form, response };
}

export async function listResponses(ctx: PlatformContext, scope: FormScope, formId: string, limit: number, offset: number): Promise<FormResponse[]> {
  const form = await findForm(ctx, scope, formId);
  return ctx.stores.api.routingForms.listResponses(form.id, limit, offset);
}

/**
 * Records a response to a form of the scope, checked against its fields; docs/rules.md#webhooks:
 * the FORM_SUBMITTED event lands with the response, in one transaction, or neither does.
 */
export async function createResponse(ctx: PlatformContext, scope: FormScope, formId: string, answers: FormAnswers): Promise<FormResponse> {
  const form = await findForm(ctx, scope, formId);
  checkAnswers(form.fields, answers);
  const now = ctx.clock();
  const created: FormResponse = { id: await ctx.stores.ids.next('routing_form_responses'), formId: form.id, answers, createdAt: now, updatedAt: now };
  await ctx.stores.transaction(async (tx) => {
    await tx.api.routingForms.insertResponse(created);
    await recordFormSubmitted(tx, form, created);
  });
  return created;
}

/** Replaces a response's answers, checked against its form's fields as they are now. */
export async function updateResponse(ctx: PlatformContext, scope: FormScope, formId: string, responseId: string, answers: FormAnswers): Promise<FormResponse> {
  const { form, response } = await findResponse(ctx, scope, formId, responseId);
  checkAnswers(form.fields, answers);
  const updatedAt = ctx.clock();
  await ctx.stores.api.routingForms.updateResponse(response.id, answers, updatedAt);
  return { ...response, answers, updatedAt };
}

/** Removes a response of a form of the scope; answers its id. */
export async function deleteResponse(ctx: PlatformContext, scope: FormScope, formId: string, responseId: string): Promise<string> {
  const { response } = await findResponse(ctx, scope, formId, responseId);
  await ctx.stores.api.routingForms.deleteResponse(response.id);
  return response.id;
}
