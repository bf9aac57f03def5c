// Routing forms of a team (TEAM_ROUTING_FORM_*) and of an organization
// (ORG_ROUTING_FORM_*), and their responses, each checked against the form's fields.
import type { PlatformDeps } from '../deps.ts';
import { publishEvent, randomId } from '../authorization-server.ts';
import { route, type HandlerMap } from '../handler.ts';
import { invalid, iso, notFound } from '../input.ts';
import { numbered, numberedOrNull } from '../numbered-ids.ts';
import type { FormAnswers, FormField, FormResponse, FormScope, RoutingForm } from './store.ts';
import { arrayOf, bool, deletedNumbered, listQuery, nullable, numberedId, object, str, type JsonSchema, type ListQuery } from '../schemas.ts';

/** FORM_SUBMITTED (docs/integrating.md#webhooks): a routing form of a team or an organization received a response. */
function recordFormSubmitted(stores: Parameters<typeof publishEvent>[0], form: RoutingForm, response: FormResponse): Promise<void> {
  const owner = { hostId: null, teamId: form.teamId, organizationId: form.organizationId };
  const data = { formId: form.id, formName: form.name, teamId: numberedOrNull(form.teamId), organizationId: numberedOrNull(form.organizationId), responseId: numbered(response.id), answers: response.answers, createdAt: iso(response.createdAt) };
  return publishEvent(stores, 'FORM_SUBMITTED', owner, data, response.createdAt);
}

const FIELD_TYPES = ['text', 'textarea', 'email', 'phone', 'number', 'select', 'multiselect'];

type Field = FormField;
type Answers = FormAnswers;

const fieldSchema = object(
  { id: str(1, 50, { pattern: '^[A-Za-z0-9_-]+$' }), label: str(1, 200), type: { type: 'string', enum: FIELD_TYPES }, required: bool, options: arrayOf(str(1, 200), 1, 50) },
  ['id', 'label', 'type'],
);

const formView: JsonSchema = object(
  {
    id: { type: 'string' },
    name: { type: 'string' },
    description: { type: 'string' },
    fields: arrayOf(fieldSchema, 1, 50),
    disabled: bool,
    teamId: nullable(numberedId),
    organizationId: nullable(numberedId),
    createdAt: { type: 'string' },
    updatedAt: { type: 'string' },
  },
  ['id', 'name', 'description', 'fields', 'disabled', 'teamId', 'organizationId', 'createdAt', 'updatedAt'],
);

const form = (f: RoutingForm) => ({
  id: f.id,
  name: f.name,
  description: f.description,
  fields: f.fields,
  disabled: f.disabled,
  teamId: f.teamId,
  organizationId: f.organizationId,
  createdAt: iso(f.createdAt),
  updatedAt: iso(f.updatedAt),
});

// One schema with a list of types, not anyOf: Ajv coerces inside anyOf (coerceTypes), so the
// string branch turned a number answer into text that a number field then refused. With the
// answer's own type in the list nothing is coerced, and each field's type is checkAnswers'.
const answerSchema = { type: ['string', 'number', 'array'], maxLength: 5000, items: str(1, 200), maxItems: 50 };
const responseView: JsonSchema = object(
  { id: numberedId, formId: { type: 'string' }, response: { type: 'object', additionalProperties: answerSchema }, createdAt: { type: 'string' }, updatedAt: { type: 'string' } },
  ['id', 'formId', 'response', 'createdAt', 'updatedAt'],
);
const response = (r: FormResponse) => ({ id: r.id, formId: r.formId, response: r.answers, createdAt: iso(r.createdAt), updatedAt: iso(r.updatedAt) });

const responseBody = object({ response: { type: 'object', maxProperties: 50, additionalProperties: answerSchema } }, ['response']);

function checkFields(fields: Field[]): void {
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
export function checkAnswers(fields: Field[], answers: Answers): void {
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

type Call = { facts: { team?: { id: string } | null; organization?: { id: string } | null } };
type FormParams = { formId: string };
type ResponseParams = { formId: string; responseId: string };

export function routingFormHandlers(deps: PlatformDeps): HandlerMap {
  const team = formRoutes(deps, 'team');
  const org = formRoutes(deps, 'organization');
  return {
    'teamRoutingForms.list': team.list,
    'teamRoutingForms.create': team.create,
    'teamRoutingForms.get': team.get,
    'teamRoutingForms.listResponses': team.listResponses,
    'teamRoutingForms.createResponse': team.createResponse,
    'teamRoutingForms.updateResponse': team.updateResponse,
    'teamRoutingForms.deleteResponse': team.deleteResponse,
    'orgRoutingForms.list': org.list,
    'orgRoutingForms.create': org.create,
    'orgRoutingForms.listResponses': org.listResponses,
    'orgRoutingForms.createResponse': org.createResponse,
  };
}

type Kind = 'team' | 'organization';

/** A team's or an organization's forms, and their responses checked against the form's fields. */
function formRoutes(deps: PlatformDeps, kind: Kind) {
  const access = formAccess(deps, kind);
  return { ...formDefinitionRoutes(deps, access), ...formResponseRoutes(deps, access) };
}

interface FormAccess {
  scope: (call: Call) => FormScope;
  /** The call's form, or 404: another team's form is as absent as a missing one. */
  load: (call: Call, id: string) => Promise<RoutingForm>;
  loadResponse: (call: Call, p: ResponseParams) => Promise<{ f: RoutingForm; r: FormResponse }>;
}

function formAccess(deps: PlatformDeps, kind: Kind): FormAccess {
  const forms = deps.services.stores.api.routingForms;
  const scope = (call: Call): FormScope => (kind === 'team' ? { teamId: call.facts.team!.id } : { organizationId: call.facts.organization!.id });
  const load = async (call: Call, id: string) => {
    const found = await forms.find(scope(call), id);
    if (found === undefined) throw notFound('routing form');
    return found;
  };
  const loadResponse = async (call: Call, p: ResponseParams) => {
    const f = await load(call, p.formId);
    const r = await forms.findResponse(f.id, p.responseId);
    if (r === undefined) throw notFound('routing form response');
    return { f, r };
  };
  return { scope, load, loadResponse };
}

type NewForm = { name: string; description?: string; fields: Field[]; disabled?: boolean };

function newForm(where: FormScope, body: NewForm, now: number): RoutingForm {
  return {
    id: randomId(),
    teamId: 'teamId' in where ? where.teamId : null,
    organizationId: 'organizationId' in where ? where.organizationId : null,
    name: body.name.trim(),
    description: body.description ?? '',
    fields: body.fields,
    disabled: body.disabled ?? false,
    createdAt: now,
    updatedAt: now,
  };
}

function formDefinitionRoutes(deps: PlatformDeps, { scope, load }: FormAccess) {
  const { clock } = deps.services;
  const forms = deps.services.stores.api.routingForms;
  return {
    list: route<unknown, ListQuery>({
      query: listQuery(),
      data: arrayOf(formView, 0, 100),
      handle: async (call) => (await forms.list(scope(call), call.query.limit, call.query.offset)).map(form),
    }),
    create: route<NewForm>({
      body: object({ name: str(1, 100), description: str(0, 2000), fields: arrayOf(fieldSchema, 1, 50), disabled: bool }, ['name', 'fields']),
      data: formView,
      status: 201,
      handle: async (call) => {
        checkFields(call.body.fields);
        const created = newForm(scope(call), call.body, clock());
        await forms.insert(created);
        return form(created);
      },
    }),
    get: route<unknown, unknown, FormParams>({ data: formView, handle: async (call) => form(await load(call, call.params.formId)) }),
  };
}

/** Every answer is checked against the form's fields as they are now. */
function formResponseRoutes(deps: PlatformDeps, { load, loadResponse }: FormAccess) {
  const { clock } = deps.services;
  const forms = deps.services.stores.api.routingForms;
  return {
    listResponses: route<unknown, ListQuery, FormParams>({
      query: listQuery(),
      data: arrayOf(responseView, 0, 100),
      handle: async (call) => {
        const f = await load(call, call.params.formId);
        return (await forms.listResponses(f.id, call.query.limit, call.query.offset)).map(response);
      },
    }),
    createResponse: route<{ response: Answers }, unknown, FormParams>({
      body: responseBody,
      data: responseView,
      status: 201,
      handle: async (call) => {
        const f = await load(call, call.params.formId);
        checkAnswers(f.fields, call.body.response);
        const now = clock();
        const created: FormResponse = { id: await deps.services.stores.ids.next('routing_form_responses'), formId: f.id, answers: call.body.response, createdAt: now, updatedAt: now };
        // docs/rules.md#webhooks: the FORM_SUBMITTED event lands with the response, or neither does.
        await deps.services.stores.transaction(async (tx) => {
          await tx.api.routingForms.insertResponse(created);
          await recordFormSubmitted(tx, f, created);
        });
        return response(created);
      },
    }),
    updateResponse: route<{ response: Answers }, unknown, ResponseParams>({
      body: responseBody,
      data: responseView,
      handle: async (call) => {
        const { f, r } = await loadResponse(call, call.params);
        checkAnswers(f.fields, call.body.response);
        const updatedAt = clock();
        await forms.updateResponse(r.id, call.body.response, updatedAt);
        return response({ ...r, answers: call.body.response, updatedAt });
      },
    }),
    deleteResponse: route<unknown, unknown, ResponseParams>({
      data: deletedNumbered,
      handle: async (call) => {
        const { r } = await loadResponse(call, call.params);
        await forms.deleteResponse(r.id);
        return { id: r.id, deleted: true };
      },
    }),
  };
}
