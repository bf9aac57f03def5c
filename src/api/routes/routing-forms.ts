// Routing forms of a team (TEAM_ROUTING_FORM_*) and of an organization
// (ORG_ROUTING_FORM_*), and their responses, each checked against the form's fields.
import type { AppContext } from '../../http/context.ts';
import { randomId } from '../../oauth/token-format.ts';
import * as repo from '../../storage/repositories/routing-forms.ts';
import type { FormScope, RoutingFormResponseRow, RoutingFormRow } from '../../storage/repositories/routing-forms.ts';
import { route, type HandlerMap } from '../handler.ts';
import { invalid, iso, notFound, parseJson } from '../input.ts';
import { arrayOf, bool, deleted, listQuery, nullable, object, str, type JsonSchema, type Page } from '../schemas.ts';

const FIELD_TYPES = ['text', 'textarea', 'email', 'phone', 'number', 'select', 'multiselect'];

interface Field {
  id: string;
  label: string;
  type: string;
  required?: boolean;
  options?: string[];
}
type Answers = Record<string, string | number | string[]>;

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
    teamId: nullable({ type: 'string' }),
    organizationId: nullable({ type: 'string' }),
    createdAt: { type: 'string' },
    updatedAt: { type: 'string' },
  },
  ['id', 'name', 'description', 'fields', 'disabled', 'teamId', 'organizationId', 'createdAt', 'updatedAt'],
);

const form = (f: RoutingFormRow) => ({
  id: f.id,
  name: f.name,
  description: f.description,
  fields: parseJson<Field[]>(f.fields),
  disabled: f.disabled === 1,
  teamId: f.team_id,
  organizationId: f.organization_id,
  createdAt: iso(f.created_at),
  updatedAt: iso(f.updated_at),
});

const answerSchema = { anyOf: [str(0, 5000), { type: 'number' }, arrayOf(str(1, 200), 0, 50)] };
const responseView: JsonSchema = object(
  { id: { type: 'string' }, formId: { type: 'string' }, response: { type: 'object', additionalProperties: answerSchema }, createdAt: { type: 'string' }, updatedAt: { type: 'string' } },
  ['id', 'formId', 'response', 'createdAt', 'updatedAt'],
);
const response = (r: RoutingFormResponseRow) => ({ id: r.id, formId: r.form_id, response: parseJson<Answers>(r.response), createdAt: iso(r.created_at), updatedAt: iso(r.updated_at) });

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

export function routingFormHandlers(ctx: AppContext): HandlerMap {
  const { db, clock } = ctx.services;

  const handlers = (kind: 'team' | 'organization') => {
    const scope = (c: Call): FormScope => (kind === 'team' ? { teamId: c.facts.team!.id } : { organizationId: c.facts.organization!.id });
    const load = async (c: Call, id: string) => {
      const row = await repo.findForm(db, scope(c), id);
      if (row === undefined) throw notFound('routing form');
      return row;
    };
    const loadResponse = async (c: Call, p: ResponseParams) => {
      const f = await load(c, p.formId);
      const r = await repo.findResponse(db, f.id, p.responseId);
      if (r === undefined) throw notFound('routing form response');
      return { f, r };
    };
    return {
      list: route<unknown, Page>({
        query: listQuery(),
        data: arrayOf(formView, 0, 100),
        handle: async (c) => (await repo.listForms(db, scope(c), c.query.limit, c.query.offset)).map(form),
      }),
      create: route<{ name: string; description?: string; fields: Field[]; disabled?: boolean }>({
        body: object({ name: str(1, 100), description: str(0, 2000), fields: arrayOf(fieldSchema, 1, 50), disabled: bool }, ['name', 'fields']),
        data: formView,
        status: 201,
        handle: async (c) => {
          checkFields(c.body.fields);
          const now = clock();
          const s = scope(c);
          const row: RoutingFormRow = {
            id: randomId(),
            team_id: 'teamId' in s ? s.teamId : null,
            organization_id: 'organizationId' in s ? s.organizationId : null,
            name: c.body.name.trim(),
            description: c.body.description ?? '',
            fields: JSON.stringify(c.body.fields),
            disabled: c.body.disabled ? 1 : 0,
            created_at: now,
            updated_at: now,
          };
          await repo.insertForm(db, row);
          return form(row);
        },
      }),
      get: route<unknown, unknown, FormParams>({ data: formView, handle: async (c) => form(await load(c, c.params.formId)) }),
      listResponses: route<unknown, Page, FormParams>({
        query: listQuery(),
        data: arrayOf(responseView, 0, 100),
        handle: async (c) => {
          const f = await load(c, c.params.formId);
          return (await repo.listResponses(db, f.id, c.query.limit, c.query.offset)).map(response);
        },
      }),
      createResponse: route<{ response: Answers }, unknown, FormParams>({
        body: responseBody,
        data: responseView,
        status: 201,
        handle: async (c) => {
          const f = await load(c, c.params.formId);
          checkAnswers(parseJson<Field[]>(f.fields), c.body.response);
          const now = clock();
          const row: RoutingFormResponseRow = { id: randomId(), form_id: f.id, response: JSON.stringify(c.body.response), created_at: now, updated_at: now };
          await repo.insertResponse(db, row);
          return response(row);
        },
      }),
      updateResponse: route<{ response: Answers }, unknown, ResponseParams>({
        body: responseBody,
        data: responseView,
        handle: async (c) => {
          const { f, r } = await loadResponse(c, c.params);
          checkAnswers(parseJson<Field[]>(f.fields), c.body.response);
          const changes = { response: JSON.stringify(c.body.response), updated_at: clock() };
          await repo.updateResponse(db, r.id, changes);
          return response({ ...r, ...changes });
        },
      }),
      deleteResponse: route<unknown, unknown, ResponseParams>({
        data: deleted,
        handle: async (c) => {
          const { r } = await loadResponse(c, c.params);
          await repo.deleteResponse(db, r.id);
          return { id: r.id, deleted: true };
        },
      }),
    };
  };

  const team = handlers('team');
  const org = handlers('organization');
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
