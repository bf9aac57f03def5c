// RoutingFormStore (src/platform/routing-forms/store.ts) over the routing_forms repository.
import type { FormAnswers, FormField, FormResponse, RoutingForm, RoutingFormStore } from '../../../platform/routing-forms/store.ts';
import type { Executor } from '../../repositories/executor.ts';
import * as repo from '../../repositories/routing-forms.ts';

const toForm = (f: repo.RoutingFormRow): RoutingForm => ({
  id: f.id,
  teamId: f.team_id,
  organizationId: f.organization_id,
  name: f.name,
  description: f.description,
  fields: JSON.parse(f.fields) as FormField[],
  disabled: f.disabled === 1,
  createdAt: f.created_at,
  updatedAt: f.updated_at,
});

const toResponse = (r: repo.RoutingFormResponseRow): FormResponse => ({
  id: r.id,
  formId: r.form_id,
  answers: JSON.parse(r.response) as FormAnswers,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

export function createRoutingFormStore(db: Executor): RoutingFormStore {
  return {
    insert: (f) =>
      repo.insertForm(db, {
        id: f.id,
        team_id: f.teamId,
        organization_id: f.organizationId,
        name: f.name,
        description: f.description,
        fields: JSON.stringify(f.fields),
        disabled: f.disabled ? 1 : 0,
        created_at: f.createdAt,
        updated_at: f.updatedAt,
      }),
    find: async (scope, id) => {
      const row = await repo.findForm(db, scope, id);
      return row && toForm(row);
    },
    list: async (scope, limit, offset) => (await repo.listForms(db, scope, limit, offset)).map(toForm),
    insertResponse: (r) => repo.insertResponse(db, { id: r.id, form_id: r.formId, response: JSON.stringify(r.answers), created_at: r.createdAt, updated_at: r.updatedAt }),
    listResponses: async (formId, limit, offset) => (await repo.listResponses(db, formId, limit, offset)).map(toResponse),
    findResponse: async (formId, id) => {
      const row = await repo.findResponse(db, formId, id);
      return row && toResponse(row);
    },
    updateResponse: (id, answers, updatedAt) => repo.updateResponse(db, id, { response: JSON.stringify(answers), updated_at: updatedAt }),
    deleteResponse: (id) => repo.deleteResponse(db, id),
  };
}
