// RoutingFormStore (src/platform/routing-forms/store.ts) on Kysely: the forms of a team or an
// organization, and their responses.
import type { Selectable } from 'kysely';
import type { FormAnswers, FormField, FormResponse, FormScope, RoutingForm, RoutingFormStore } from '../../../platform/routing-forms/store.ts';
import type { Executor } from '../../repositories/executor.ts';
import type { RoutingFormResponsesTable, RoutingFormsTable } from '../../schema.ts';

const toForm = (f: Selectable<RoutingFormsTable>): RoutingForm => ({
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

const toResponse = (r: Selectable<RoutingFormResponsesTable>): FormResponse => ({
  id: r.id,
  formId: r.form_id,
  answers: JSON.parse(r.response) as FormAnswers,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

/** A team's forms; or an organization's: its own and its teams'. */
function scoped(db: Executor, scope: FormScope) {
  const q = db.selectFrom('routing_forms').selectAll();
  if ('teamId' in scope) return q.where('team_id', '=', scope.teamId);
  const orgId = scope.organizationId;
  return q.where((eb) => eb.or([eb('organization_id', '=', orgId), eb('team_id', 'in', eb.selectFrom('teams').select('id').where('organization_id', '=', orgId))]));
}

export function createRoutingFormStore(db: Executor): RoutingFormStore {
  const responsesOf = (formId: string) => db.selectFrom('routing_form_responses').selectAll().where('form_id', '=', formId);
  return {
    insert: async (f) => {
      await db
        .insertInto('routing_forms')
        .values({
          id: f.id,
          team_id: f.teamId,
          organization_id: f.organizationId,
          name: f.name,
          description: f.description,
          fields: JSON.stringify(f.fields),
          disabled: f.disabled ? 1 : 0,
          created_at: f.createdAt,
          updated_at: f.updatedAt,
        })
        .execute();
    },
    find: async (scope, id) => {
      const row = await scoped(db, scope).where('id', '=', id).executeTakeFirst();
      return row && toForm(row);
    },
    list: async (scope, limit, offset) => (await scoped(db, scope).orderBy('created_at').orderBy('id').limit(limit).offset(offset).execute()).map(toForm),
    insertResponse: async (r) => {
      await db.insertInto('routing_form_responses').values({ id: r.id, form_id: r.formId, response: JSON.stringify(r.answers), created_at: r.createdAt, updated_at: r.updatedAt }).execute();
    },
    listResponses: async (formId, limit, offset) => (await responsesOf(formId).orderBy('created_at').orderBy('id').limit(limit).offset(offset).execute()).map(toResponse),
    findResponse: async (formId, id) => {
      const row = await responsesOf(formId).where('id', '=', id).executeTakeFirst();
      return row && toResponse(row);
    },
    updateResponse: async (id, answers, updatedAt) => {
      await db.updateTable('routing_form_responses').set({ response: JSON.stringify(answers), updated_at: updatedAt }).where('id', '=', id).execute();
    },
    deleteResponse: async (id) => {
      await db.deleteFrom('routing_form_responses').where('id', '=', id).execute();
    },
  };
}
