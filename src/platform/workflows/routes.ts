// Team workflows (TEAM_WORKFLOW_*): reminders and notifications around the team's bookings.
// Stored and validated here; sending is outside this service.
import type { PlatformDeps } from '../deps.ts';
import { route, type HandlerMap } from '../handler.ts';
import { invalid, iso, notFound } from '../input.ts';
import type { Workflow, WorkflowChanges, WorkflowStep } from './store.ts';
import { arrayOf, bool, deletedNumbered, int, listQuery, numberedId, numberedIdInput, object, patchOf, str, type JsonSchema, type ListQuery } from '../schemas.ts';

const TRIGGERS = ['NEW_EVENT', 'BEFORE_EVENT', 'AFTER_EVENT', 'EVENT_CANCELLED', 'RESCHEDULE_EVENT'];
const ACTIONS = ['EMAIL_HOST', 'EMAIL_ATTENDEE', 'EMAIL_ADDRESS', 'SMS_ATTENDEE', 'SMS_NUMBER'];

type Step = WorkflowStep;

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

interface WorkflowInput {
  name: string;
  trigger: string;
  timeOffsetMinutes?: number;
  steps: Step[];
  activeOnEventTypeIds?: string[];
  active?: boolean;
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const PHONE = /^\+[1-9][0-9]{6,14}$/;

function checkSteps(steps: Step[] | undefined): void {
  steps?.forEach((s, i) => {
    if (s.action === 'EMAIL_ADDRESS' && !(s.sendTo && EMAIL.test(s.sendTo))) throw invalid(`steps.${i}.sendTo`, 'EMAIL_ADDRESS needs an email address to send to');
    if (s.action === 'SMS_NUMBER' && !(s.sendTo && PHONE.test(s.sendTo))) throw invalid(`steps.${i}.sendTo`, 'SMS_NUMBER needs an E.164 phone number to send to');
  });
}

/**
 * The changes a create or update body asks for, checked: steps, the team's own event types
 * only (EventTypeStore), and an offset only for BEFORE_EVENT and AFTER_EVENT.
 */
async function workflowChanges(deps: PlatformDeps, teamId: string, body: Partial<WorkflowInput>, trigger: string): Promise<WorkflowChanges> {
  checkSteps(body.steps);
  const ids = body.activeOnEventTypeIds;
  if (ids && ids.length > 0 && (await deps.services.stores.api.eventTypes.countInTeam(teamId, ids)) !== ids.length) {
    throw invalid('activeOnEventTypeIds', 'lists an event type that is not one of this team');
  }
  const offset = body.timeOffsetMinutes;
  if (offset !== undefined && offset > 0 && trigger !== 'BEFORE_EVENT' && trigger !== 'AFTER_EVENT') {
    throw invalid('timeOffsetMinutes', 'applies to BEFORE_EVENT and AFTER_EVENT workflows only');
  }
  return {
    ...(body.name !== undefined ? { name: body.name.trim() } : {}),
    ...(body.trigger !== undefined ? { trigger: body.trigger } : {}),
    ...(offset !== undefined ? { timeOffsetMinutes: offset } : {}),
    ...(body.steps !== undefined ? { steps: body.steps } : {}),
    ...(ids !== undefined ? { activeOnEventTypeIds: ids } : {}),
    ...(body.active !== undefined ? { active: body.active } : {}),
    updatedAt: deps.services.clock(),
  };
}

export function workflowHandlers(deps: PlatformDeps): HandlerMap {
  const { clock } = deps.services;
  const workflows = deps.services.stores.api.workflows;
  const changes = (teamId: string, body: Partial<WorkflowInput>, trigger: string) => workflowChanges(deps, teamId, body, trigger);
  const load = async (teamId: string, id: string) => {
    const found = await workflows.find(teamId, id);
    if (found === undefined) throw notFound('workflow');
    return found;
  };
  type Params = { workflowId: string };

  return {
    'teamWorkflows.list': route<unknown, ListQuery>({
      query: listQuery(),
      data: arrayOf(workflowView, 0, 100),
      handle: async ({ facts, query }) => (await workflows.list(facts.team!.id, query.limit, query.offset)).map(workflow),
    }),
    'teamWorkflows.create': route<WorkflowInput>({
      body: object(fields, ['name', 'trigger', 'steps']),
      data: workflowView,
      status: 201,
      handle: async ({ facts, body }) => {
        const teamId = facts.team!.id;
        const created: Workflow = {
          id: await deps.services.stores.ids.next('workflows'),
          teamId,
          name: '',
          trigger: body.trigger,
          timeOffsetMinutes: 0,
          steps: [],
          activeOnEventTypeIds: [],
          active: true,
          createdAt: clock(),
          ...(await changes(teamId, body, body.trigger)),
        };
        await workflows.insert(created);
        return workflow(created);
      },
    }),
    'teamWorkflows.get': route<unknown, unknown, Params>({ data: workflowView, handle: async ({ facts, params }) => workflow(await load(facts.team!.id, params.workflowId)) }),
    'teamWorkflows.update': route<Partial<WorkflowInput>, unknown, Params>({
      body: patchOf(fields),
      data: workflowView,
      handle: async ({ facts, params, body }) => {
        const current = await load(facts.team!.id, params.workflowId);
        const changed = await changes(current.teamId, body, body.trigger ?? current.trigger);
        await workflows.update(current.id, changed);
        return workflow({ ...current, ...changed });
      },
    }),
    'teamWorkflows.delete': route<unknown, unknown, Params>({
      data: deletedNumbered,
      handle: async ({ facts, params }) => {
        if (!(await workflows.delete(facts.team!.id, params.workflowId))) throw notFound('workflow');
        return { id: params.workflowId, deleted: true };
      },
    }),
  };
}
