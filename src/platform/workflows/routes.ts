// Team workflows (TEAM_WORKFLOW_*): reminders and notifications around the team's bookings.
// Stored and validated here; sending is outside this service.
import type { PlatformDeps } from '../deps.ts';
import { route, type HandlerMap } from '../handler.ts';
import { iso } from '../input.ts';
import { arrayOf, bool, deletedNumbered, int, listQuery, numberedId, numberedIdInput, object, patchOf, str, type JsonSchema, type ListQuery } from '../schemas.ts';
import { createWorkflow, deleteWorkflow, findWorkflow, listWorkflows, updateWorkflow, type Workflow, type WorkflowInput } from './service.ts';

const TRIGGERS = ['NEW_EVENT', 'BEFORE_EVENT', 'AFTER_EVENT', 'EVENT_CANCELLED', 'RESCHEDULE_EVENT'];
const ACTIONS = ['EMAIL_HOST', 'EMAIL_ATTENDEE', 'EMAIL_ADDRESS', 'SMS_ATTENDEE', 'SMS_NUMBER'];

const stepSchema = object(
  { action: { type: 'string', enum: ACTIONS }, sendTo: str(1, 254), template: { type: 'string', enum: ['REMINDER', 'CUSTOM'] }, subject: str(0, 200), body: str(1, 5000) },
  ['action', 'body'],
);

const workflowView: JsonSchema = object(
  {
    id: numberedId,
    teamId: numberedId,
    name: { type: 'string' },
    trigger: { type: 'string' },
    timeOffsetMinutes: { type: 'integer' },
    steps: arrayOf(stepSchema, 1, 10),
    activeOnEventTypeIds: arrayOf(numberedId, 0, 100),
    active: bool,
    createdAt: { type: 'string' },
    updatedAt: { type: 'string' },
  },
  ['id', 'teamId', 'name', 'trigger', 'timeOffsetMinutes', 'steps', 'activeOnEventTypeIds', 'active', 'createdAt', 'updatedAt'],
);

const workflow = (w: Workflow) => ({
  ...w,
  createdAt: iso(w.createdAt),
  updatedAt: iso(w.updatedAt),
});

const fields = {
  name: str(1, 100),
  trigger: { type: 'string', enum: TRIGGERS },
  timeOffsetMinutes: int(0, 43_200, { description: 'minutes before (BEFORE_EVENT) or after (AFTER_EVENT) the booking' }),
  steps: arrayOf(stepSchema, 1, 10),
  activeOnEventTypeIds: { ...arrayOf(numberedIdInput, 0, 100), uniqueItems: true },
  active: bool,
};

export function workflowHandlers(deps: PlatformDeps): HandlerMap {
  const ctx = deps.services;
  type Params = { workflowId: string };

  return {
    'teamWorkflows.list': route<unknown, ListQuery>({
      query: listQuery(),
      data: arrayOf(workflowView, 0, 100),
      handle: async ({ facts, query }) => (await listWorkflows(ctx, facts.team!.id, query.limit, query.offset)).map(workflow),
    }),
    'teamWorkflows.create': route<WorkflowInput>({
      body: object(fields, ['name', 'trigger', 'steps']),
      data: workflowView,
      status: 201,
      handle: async ({ facts, body }) => workflow(await createWorkflow(ctx, facts.team!.id, body)),
    }),
    'teamWorkflows.get': route<unknown, unknown, Params>({ data: workflowView, handle: async ({ facts, params }) => workflow(await findWorkflow(ctx, facts.team!.id, params.workflowId)) }),
    'teamWorkflows.update': route<Partial<WorkflowInput>, unknown, Params>({
      body: patchOf(fields),
      data: workflowView,
      handle: async ({ facts, params, body }) => workflow(await updateWorkflow(ctx, facts.team!.id, params.workflowId, body)),
    }),
    'teamWorkflows.delete': route<unknown, unknown, Params>({
      data: deletedNumbered,
      handle: async ({ facts, params }) => ({ id: await deleteWorkflow(ctx, facts.team!.id, params.workflowId), deleted: true }),
    }),
  };
}
