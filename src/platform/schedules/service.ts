// The rules of schedules (availability) and every store call they make, for the routes of a
// user, a team, an organization and a member the path names, and for the MCP tools that call
// the same routes. A schedule outside the caller's scope is as absent as a missing one.
import { checkTimeZone, invalid, notFound } from '../input.ts';
import type { PlatformContext } from '../stores.ts';
import { DEFAULT_WEEK } from './default-week.ts';
import type { AvailabilityOverride, AvailabilityRange, Schedule, ScheduleChanges, ScheduleScope } from './store.ts';

export type { Schedule, ScheduleScope } from './store.ts';

/** What a caller may set of a schedule; `isDefault` only of a personal one. */
export interface ScheduleInput {
  name: string;
  timeZone: string;
  availability?: AvailabilityRange[];
  overrides?: AvailabilityOverride[];
  isDefault?: boolean;
}

/** Whose new schedule: a user's (personal) or a team's. */
export type ScheduleOwner = { userId: string } | { teamId: string };

/**
 * docs/integrating.md#schedules: an override from 00:00 to 00:00 marks its date unavailable, as
 * the platform reads it (its clients, Cal.com's own MCP server among them, send it so).
 */
export const isUnavailableDay = (o: AvailabilityOverride): boolean => o.startTime === '00:00' && o.endTime === '00:00';

/**
 * Ranges must end after they start: "17:00-09:00" is a mistake, not a night shift. The one
 * exception is an override of 00:00-00:00, a date marked unavailable, which cannot also have
 * hours: a date given both is refused rather than read one way or the other.
 */
function checkRanges(input: Partial<ScheduleInput>): void {
  checkTimeZone(input.timeZone);
  input.availability?.forEach((r, i) => {
    if (r.endTime <= r.startTime) throw invalid(`availability.${i}.endTime`, 'must be later than startTime');
  });
  const unavailable = new Set(input.overrides?.filter(isUnavailableDay).map((o) => o.date));
  input.overrides?.forEach((o, i) => {
    if (isUnavailableDay(o)) return;
    if (o.endTime <= o.startTime) throw invalid(`overrides.${i}.endTime`, 'must be later than startTime (00:00 to 00:00 marks the whole date unavailable)');
    if (unavailable.has(o.date)) throw invalid(`overrides.${i}`, `${o.date} is marked unavailable (00:00-00:00) by another override: give the date hours or mark it unavailable, not both`);
  });
}

function changesOf(input: Partial<ScheduleInput>, now: number): ScheduleChanges {
  checkRanges(input);
  return {
    ...(input.name !== undefined ? { name: input.name.trim() } : {}),
    ...(input.timeZone !== undefined ? { timeZone: input.timeZone } : {}),
    ...(input.availability !== undefined ? { availability: input.availability } : {}),
    ...(input.overrides !== undefined ? { overrides: input.overrides } : {}),
    updatedAt: now,
  };
}

/** A schedule of the scope, or 404: another owner's schedule is as absent as a missing one. */
export async function findSchedule(ctx: PlatformContext, scope: ScheduleScope, id: string): Promise<Schedule> {
  const found = await ctx.stores.api.schedules.find(scope, id);
  if (found === undefined) throw notFound('schedule');
  return found;
}

export function listSchedules(ctx: PlatformContext, scope: ScheduleScope, limit: number, offset: number): Promise<Schedule[]> {
  return ctx.stores.api.schedules.list(scope, limit, offset);
}

/**
 * The user's default schedule (the one GET /v2/me names), or null when they have none yet, as
 * the platform answers: a missing default is a state of the account, not a missing resource.
 */
export async function defaultSchedule(ctx: PlatformContext, userId: string): Promise<Schedule | null> {
  const { profiles, schedules } = ctx.stores.api;
  const scheduleId = (await profiles.find(userId))?.defaultScheduleId;
  const found = scheduleId == null ? undefined : await schedules.find({ userId }, scheduleId);
  return found ?? null;
}

/** A new schedule; a user's first becomes their default (GET /v2/me defaultScheduleId), as does one asked to be. */
export async function createSchedule(ctx: PlatformContext, owner: ScheduleOwner, input: ScheduleInput): Promise<Schedule> {
  const now = ctx.clock();
  // Checked before an id is taken: a refused request uses up no number of the series.
  const changes = changesOf(input, now);
  const id = await ctx.stores.ids.next('schedules');
  const personal = 'userId' in owner;
  const created = {
    id,
    ownerId: personal ? owner.userId : null,
    teamId: personal ? null : owner.teamId,
    availability: [...DEFAULT_WEEK],
    overrides: [],
    createdAt: now,
    name: input.name.trim(),
    timeZone: input.timeZone,
    ...changes,
  };
  await ctx.stores.transaction(async (tx) => {
    await tx.api.schedules.insert(created);
    if (personal) await tx.api.schedules.setDefault(owner.userId, id, input.isDefault !== true);
  });
  return findSchedule(ctx, personal ? { userId: owner.userId } : { teamId: owner.teamId }, id);
}

/** Changes a schedule of the scope; only a personal one can become or stop being its user's default. */
export async function updateSchedule(ctx: PlatformContext, scope: ScheduleScope, id: string, input: Partial<ScheduleInput>): Promise<Schedule> {
  const current = await findSchedule(ctx, scope, id);
  const changes = changesOf(input, ctx.clock());
  await ctx.stores.transaction(async (tx) => {
    await tx.api.schedules.update(current.id, changes);
    if (current.ownerId !== null && input.isDefault === true) await tx.api.schedules.setDefault(current.ownerId, current.id, false);
    if (current.ownerId !== null && input.isDefault === false && current.isDefault) await tx.api.schedules.clearDefault(current.ownerId);
  });
  return findSchedule(ctx, scope, current.id);
}

/** Deletes a schedule of the scope (and unsets it where it was a default); answers its id. */
export async function deleteSchedule(ctx: PlatformContext, scope: ScheduleScope, id: string): Promise<string> {
  const current = await findSchedule(ctx, scope, id);
  await ctx.stores.transaction((tx) => tx.api.schedules.delete(current.id));
  return current.id;
}
