// The rules of a team's workflows (reminders and notifications around the team's bookings) and
// every store call they make: each step has where to send to when its action needs it, the
// event types are the team's own, and an offset belongs to BEFORE_EVENT and AFTER_EVENT only.
// Stored and validated here; sending is outside this service. Another team's workflow is as
// absent as a missing one.
import { invalid, notFound } from '../input.ts';
import type { PlatformContext } from '../stores.ts';
import type { Workflow, WorkflowChanges, WorkflowStep } from './store.ts';

export type { Workflow, WorkflowStep } from './store.ts';

/** What a caller may set of a workflow. */
export interface WorkflowInput {
  name: string;
  trigger: string;
  timeOffsetMinutes?: number;
  steps: WorkflowStep[];
  activeOnEventTypeIds?: string[];
  active?: boolean;
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const PHONE = /^\+[1-9][0-9]{6,14}$/;

function checkSteps(steps: WorkflowStep[] | undefined): void {
  steps?.forEach((s, i) => {
    if (s.action === 'EMAIL_ADDRESS' && !(s.sendTo && EMAIL.test(s.sendTo))) throw invalid(`steps.${i}.sendTo`, 'EMAIL_ADDRESS needs an email address to send to');
    if (s.action === 'SMS_NUMBER' && !(s.sendTo && PHONE.test(s.sendTo))) throw invalid(`steps.${i}.sendTo`, 'SMS_NUMBER needs an E.164 phone number to send to');
  });
}

/**
 * The changes a create or update asks for, checked: steps, the team's own event types only
 * (EventTypeStore), and an offset only for BEFORE_EVENT and AFTER_EVENT (the trigger the
 * workflow will have).
 */
async function workflowChanges(ctx: PlatformContext, teamId: string, input: Partial<WorkflowInput>, trigger: string): Promise<WorkflowChanges> {
  checkSteps(input.steps);
  const ids = input.activeOnEventTypeIds;
  if (ids && ids.length > 0 && (await ctx.stores.api.eventTypes.countInTeam(teamId, ids)) !== ids.length) {
    throw invalid('activeOnEventTypeIds', 'lists an event type that is not one of this team');
  }
  const offset = input.timeOffsetMinutes;
  if (offset !== undefined && offset > 0 && trigger !== 'BEFORE_EVENT' && trigger !== 'AFTER_EVENT') {
    throw invalid('timeOffsetMinutes', 'applies to BEFORE_EVENT and AFTER_EVENT workflows only');
  }
  return {
    ...(input.name !== undefined ? { name: input.name.trim() } : {}),
    ...(input.trigger !== undefined ? { trigger: input.trigger } : {}),
    ...(offset !== undefined ? { timeOffsetMinutes: offset } : {}),
    ...(input.steps !== undefined ? { steps: input.steps } : {}),
    ...(ids !== undefined ? { activeOnEventTypeIds: ids } : {}),
    ...(input.active !== undefined ? { active: input.active } : {}),
    updatedAt: ctx.clock(),
  };
}

export function listWorkflows(ctx: PlatformContext, teamId: string, limit: number, offset: number): Promise<Workflow[]> {
  return ctx.stores.api.workflows.list(teamId, limit, offset);
}

/** The team's workflow of that id, or 404. */
export async function findWorkflow(ctx: PlatformContext, teamId: string, id: string): Promise<Workflow> {
  const found = await ctx.stores.api.workflows.find(teamId, id);
  if (found === undefined) throw notFound('workflow');
  return found;
}

/** A new workflow of the team, active unless said otherwise, with no offset unless one is given. */
export async function createWorkflow(ctx: PlatformContext, teamId: string, input: WorkflowInput): Promise<Workflow> {
  // Checked before an id is taken: a refused request uses up no number of the series.
  const changes = await workflowChanges(ctx, teamId, input, input.trigger);
  const created: Workflow = {
    id: await ctx.stores.ids.next('workflows'),
    teamId,
    name: '',
    trigger: input.trigger,
    timeOffsetMinutes: 0,
    steps: [],
    activeOnEventTypeIds: [],
    active: true,
    createdAt: ctx.clock(),
    ...changes,
  };
  await ctx.stores.api.workflows.insert(created);
  return created;
}

/** Changes the team's workflow; an offset is checked against the trigger it will have. */
export async function updateWorkflow(ctx: PlatformContext, teamId: string, id: string, input: Partial<WorkflowInput>): Promise<Workflow> {
  const current = await findWorkflow(ctx, teamId, id);
  const changed = await workflowChanges(ctx, current.teamId, input, input.trigger ?? current.trigger);
  await ctx.stores.api.workflows.update(current.id, changed);
  return { ...current, ...changed };
}

/** Removes the team's workflow; 404 when the team has none of that id. Answers its id. */
export async function deleteWorkflow(ctx: PlatformContext, teamId: string, id: string): Promise<string> {
  if (!(await ctx.stores.api.workflows.delete(teamId, id))) throw notFound('workflow');
  return id;
}
