// Schedules (availability) of a user (SCHEDULE_*), a team (TEAM_SCHEDULE_*) and across an
// organization (ORG_SCHEDULE_*).
import type { PlatformDeps } from '../deps.ts';
import { route, type HandlerMap, type RouteHandler } from '../handler.ts';
import { memberOfPath } from '../path-member.ts';
import { iso } from '../input.ts';
import { createSchedule, defaultSchedule, deleteSchedule, findSchedule, listSchedules, updateSchedule, type Schedule, type ScheduleInput, type ScheduleOwner, type ScheduleScope } from './service.ts';
import { arrayOf, bool, deletedNumbered, listQuery, nullable, numberedId, object, patchOf, str, timeZone, type JsonSchema, type ListQuery } from '../schemas.ts';
import { WEEK_DAYS } from '../me/routes.ts';

const time = { type: 'string', pattern: '^([01][0-9]|2[0-3]):[0-5][0-9]$', description: 'HH:MM, 24-hour' };
const endTime = { type: 'string', pattern: '^(([01][0-9]|2[0-3]):[0-5][0-9]|24:00)$', description: 'HH:MM, 24-hour; 24:00 is the end of the day' };
const rangeSchema = object({ days: { ...arrayOf({ type: 'string', enum: WEEK_DAYS }, 1, 7), uniqueItems: true }, startTime: time, endTime }, ['days', 'startTime', 'endTime']);
const overrideSchema = {
  ...object({ date: { type: 'string', format: 'date' }, startTime: time, endTime }, ['date', 'startTime', 'endTime']),
  description: "The date's own hours; 00:00 to 00:00 marks the date unavailable",
};

const scheduleView: JsonSchema = object(
  {
    id: numberedId,
    name: { type: 'string' },
    timeZone: { type: 'string' },
    availability: arrayOf(rangeSchema, 0, 50),
    overrides: arrayOf(overrideSchema, 0, 100),
    isDefault: bool,
    ownerId: {
      ...nullable(numberedId),
      description: "The user whose schedule it is; of a team's schedule, the team's first owner, who answers for it (teamId names the team); null only for a team with no owner",
    },
    teamId: nullable(numberedId),
    createdAt: { type: 'string' },
    updatedAt: { type: 'string' },
  },
  ['id', 'name', 'timeZone', 'availability', 'overrides', 'isDefault', 'ownerId', 'teamId', 'createdAt', 'updatedAt'],
);

function schedule(s: Schedule) {
  return {
    id: s.id,
    name: s.name,
    timeZone: s.timeZone,
    availability: s.availability,
    overrides: s.overrides,
    isDefault: s.isDefault,
    // The platform's schedules always belong to a user (ScheduleOutput_2024_06_11 requires a
    // number): a team's is answered for by its owner (docs/integrating.md#platform-answers).
    ownerId: s.ownerId ?? s.teamOwnerId,
    teamId: s.teamId,
    createdAt: iso(s.createdAt),
    updatedAt: iso(s.updatedAt),
  };
}

const fields = { name: str(1, 100), timeZone, availability: arrayOf(rangeSchema, 0, 50), overrides: arrayOf(overrideSchema, 0, 100) };
const personalFields = { ...fields, isDefault: bool };

type Call = { userId: string; params?: { userId?: string; scheduleId?: string }; facts: { team?: { id: string } | null; organization?: { id: string } | null } };

export function scheduleHandlers(deps: PlatformDeps): HandlerMap {
  const mine = scheduleRoutes(deps, 'user');
  const team = scheduleRoutes(deps, 'team');
  const org = scheduleRoutes(deps, 'organization');
  const member = scheduleRoutes(deps, 'member');
  const ofMember = (handler: RouteHandler) => ofPathMember(deps, handler);
  return {
    'schedules.list': mine.list,
    'schedules.create': mine.create,
    'schedules.default': defaultScheduleRoute(deps),
    'schedules.get': mine.get,
    'schedules.update': mine.update,
    'schedules.delete': mine.delete,
    'teamSchedules.list': team.list,
    'teamSchedules.create': team.create,
    'teamSchedules.get': team.get,
    'teamSchedules.update': team.update,
    'teamSchedules.delete': team.delete,
    'orgSchedules.list': org.list,
    'orgSchedules.update': org.update,
    'orgSchedules.delete': org.delete,
    'teamUserSchedules.list': ofMember(member.list),
    'orgUserSchedules.list': ofMember(member.list),
    'orgUserSchedules.create': ofMember(member.create),
    'orgUserSchedules.get': ofMember(member.get),
    'orgUserSchedules.update': ofMember(member.update),
    'orgUserSchedules.delete': ofMember(member.delete),
  };
}

/**
 * Whose schedules: the token's user's, a team's, an organization's (its teams' and members'),
 * or those of the member the path names (`:userId`, a member of the path's team or organization).
 */
type Kind = 'user' | 'team' | 'organization' | 'member';

/** The user whose personal schedules the call reaches. */
const ownerOf = (kind: Kind, call: Call): string => (kind === 'member' ? call.params!.userId! : call.userId);

/** A route on the schedules of the member the path names: checked to be one first (path-member.ts). */
function ofPathMember(deps: PlatformDeps, handler: RouteHandler): RouteHandler {
  return {
    ...handler,
    handle: async (call) => {
      await memberOfPath(deps.services, call);
      return handler.handle(call);
    },
  };
}

/** The schedules the call reaches: the token's user's, the path's member's, team's or organization's. */
function scopeOf(kind: Kind, call: Call): ScheduleScope {
  if (kind === 'user' || kind === 'member') return { userId: ownerOf(kind, call) };
  return kind === 'team' ? { teamId: call.facts.team!.id } : { organizationId: call.facts.organization!.id };
}

/** Whose schedule a create makes: a personal one, or the path's team's. */
const newOwnerOf = (kind: Kind, call: Call): ScheduleOwner => (kind === 'team' ? { teamId: call.facts.team!.id } : { userId: ownerOf(kind, call) });

type ScheduleParams = { scheduleId: string };

/** List, create, read, change and delete the schedules of a user, a team or an organization. */
function scheduleRoutes(deps: PlatformDeps, kind: Kind) {
  const ctx = deps.services;
  const personal = kind === 'user' || kind === 'member';
  return {
    list: route<unknown, ListQuery>({
      query: listQuery(),
      data: arrayOf(scheduleView, 0, 100),
      handle: async (call) => (await listSchedules(ctx, scopeOf(kind, call), call.query.limit, call.query.offset)).map(schedule),
    }),
    get: route<unknown, unknown, ScheduleParams>({
      data: scheduleView,
      handle: async (call) => schedule(await findSchedule(ctx, scopeOf(kind, call), call.params.scheduleId)),
    }),
    create: route<ScheduleInput>({
      body: object(personal ? personalFields : fields, ['name', 'timeZone']),
      data: scheduleView,
      status: 201,
      handle: async (call) => schedule(await createSchedule(ctx, newOwnerOf(kind, call), call.body)),
    }),
    update: route<Partial<ScheduleInput>, unknown, ScheduleParams>({
      body: patchOf(personal ? personalFields : fields),
      data: scheduleView,
      handle: async (call) => schedule(await updateSchedule(ctx, scopeOf(kind, call), call.params.scheduleId, call.body)),
    }),
    delete: route<unknown, unknown, ScheduleParams>({
      data: deletedNumbered,
      handle: async (call) => ({ id: await deleteSchedule(ctx, scopeOf(kind, call), call.params.scheduleId), deleted: true }),
    }),
  };
}

/**
 * The user's default schedule (the one GET /v2/me names), or null when they have none yet, as
 * the platform answers: a missing default is a state of the account, not a missing resource.
 */
function defaultScheduleRoute(deps: PlatformDeps) {
  return route({
    data: nullable(scheduleView),
    handle: async ({ userId }) => {
      const found = await defaultSchedule(deps.services, userId);
      return found === null ? null : schedule(found);
    },
  });
}
