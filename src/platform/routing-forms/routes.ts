// Routing forms of a team (TEAM_ROUTING_FORM_*) and of an organization
// (ORG_ROUTING_FORM_*), and their responses, each checked against the form's fields.
import type { PlatformDeps } from '../deps.ts';
import { route, type HandlerMap } from '../handler.ts';
import { iso } from '../input.ts';
import { arrayOf, bool, deletedNumbered, listQuery, nullable, numberedId, object, str, type JsonSchema, type ListQuery } from '../schemas.ts';
import {
  createForm,
  createResponse,
  deleteResponse,
  findForm,
  listForms,
  listResponses,
  updateResponse,
  type FormAnswers,
  type FormResponse,
  type FormScope,
  type NewForm,
  type RoutingForm,
} from './service.ts';

const FIELD_TYPES = ['text', 'textarea', 'email', 'phone', 'number', 'select', 'multiselect'];

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
// answer's own type in the list nothing is coerced, and each field's type is the service's
// check (checkAnswers).
const answerSchema = { type: ['string', 'number', 'array'], maxLength: 5000, items: str(1, 200), maxItems: 50 };
const responseView: JsonSchema = object(
  { id: numberedId, formId: { type: 'string' }, response: { type: 'object', additionalProperties: answerSchema }, createdAt: { type: 'string' }, updatedAt: { type: 'string' } },
  ['id', 'formId', 'response', 'createdAt', 'updatedAt'],
);
const response = (r: FormResponse) => ({ id: r.id, formId: r.formId, response: r.answers, createdAt: iso(r.createdAt), updatedAt: iso(r.updatedAt) });

const responseBody = object({ response: { type: 'object', maxProperties: 50, additionalProperties: answerSchema } }, ['response']);

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

/** A team's forms, or an organization's (its own and its teams'). */
const scopeOf = (kind: Kind, call: Call): FormScope => (kind === 'team' ? { teamId: call.facts.team!.id } : { organizationId: call.facts.organization!.id });

/** A team's or an organization's forms, and their responses checked against the form's fields. */
function formRoutes(deps: PlatformDeps, kind: Kind) {
  const ctx = deps.services;
  const scope = (call: Call) => scopeOf(kind, call);
  return {
    list: route<unknown, ListQuery>({
      query: listQuery(),
      data: arrayOf(formView, 0, 100),
      handle: async (call) => (await listForms(ctx, scope(call), call.query.limit, call.query.offset)).map(form),
    }),
    create: route<NewForm>({
      body: object({ name: str(1, 100), description: str(0, 2000), fields: arrayOf(fieldSchema, 1, 50), disabled: bool }, ['name', 'fields']),
      data: formView,
      status: 201,
      handle: async (call) => form(await createForm(ctx, scope(call), call.body)),
    }),
    get: route<unknown, unknown, FormParams>({ data: formView, handle: async (call) => form(await findForm(ctx, scope(call), call.params.formId)) }),
    listResponses: route<unknown, ListQuery, FormParams>({
      query: listQuery(),
      data: arrayOf(responseView, 0, 100),
      handle: async (call) => (await listResponses(ctx, scope(call), call.params.formId, call.query.limit, call.query.offset)).map(response),
    }),
    createResponse: route<{ response: FormAnswers }, unknown, FormParams>({
      body: responseBody,
      data: responseView,
      status: 201,
      handle: async (call) => response(await createResponse(ctx, scope(call), call.params.formId, call.body.response)),
    }),
    updateResponse: route<{ response: FormAnswers }, unknown, ResponseParams>({
      body: responseBody,
      data: responseView,
      handle: async (call) => response(await updateResponse(ctx, scope(call), call.params.formId, call.params.responseId, call.body.response)),
    }),
    deleteResponse: route<unknown, unknown, ResponseParams>({
      data: deletedNumbered,
      handle: async (call) => ({ id: await deleteResponse(ctx, scope(call), call.params.formId, call.params.responseId), deleted: true }),
    }),
  };
}
