// Schedules (availability) of a user (SCHEDULE_*), a team (TEAM_SCHEDULE_*) and across an
// organization (ORG_SCHEDULE_*).
import type { PlatformDeps } from '../deps.ts';
import { route, type HandlerMap, type RouteHandler } from '../handler.ts';
import { memberOfPath } from '../path-member.ts';
import { checkTimeZone, invalid, iso, notFound } from '../input.ts';
import type { AvailabilityOverride, AvailabilityRange, Schedule, ScheduleChanges, ScheduleScope } from './store.ts';
import { arrayOf, bool, deletedNumbered, listQuery, nullable, numberedId, object, patchOf, str, timeZone, type JsonSchema, type ListQuery } from '../schemas.ts';
import { WEEK_DAYS } from '../me/routes.ts';

type Range = AvailabilityRange;
type Override = AvailabilityOverride;

const time = { type: 'string', pattern: '^([01][0-9]|2[0-3]):[0-5][0-9]$', description: 'HH:MM, 24-hour' };
const endTime = { type: 'string', pattern: '^(([01][0-9]|2[0-3]):[0-5][0-9]|24:00)$', description: 'HH:MM, 24-hour; 24:00 is the end of the day' };
const rangeSchema = object({ days: { ...arrayOf({ type: 'string', enum: WEEK_DAYS }, 1, 7), uniqueItems: true }, startTime: time, endTime }, ['days', 'startTime', 'endTime']);
const overrideSchema = object({ date: { type: 'string', format: 'date' }, startTime: time, endTime }, ['date', 'startTime', 'endTime']);

const scheduleView: JsonSchema = object(
  {
    id: numberedId,
    name: { type: 'string' },
    timeZone: { type: 'string' },
    availability: arrayOf(rangeSchema, 0, 50),
    overrides: arrayOf(overrideSchema, 0, 100),
    isDefault: bool,
    ownerId: nullable(numberedId),
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
    ownerId: s.ownerId,
    teamId: s.teamId,
    createdAt: iso(s.createdAt),
    updatedAt: iso(s.updatedAt),
  };
}

const fields = { name: str(1, 100), timeZone, availability: arrayOf(rangeSchema, 0, 50), overrides: arrayOf(overrideSchema, 0, 100) };
const personalFields = { ...fields, isDefault: bool };

interface ScheduleInput {
  name: string;
  timeZone: string;
  availability?: Range[];
  overrides?: Override[];
  isDefault?: boolean;
}

/** Ranges must end after they start: "17:00-09:00" is a mistake, not a night shift. */
function checkRanges(body: Partial<ScheduleInput>): void {
  checkTimeZone(body.timeZone);
  body.availability?.forEach((r, i) => {
    if (r.endTime <= r.startTime) throw invalid(`availability.${i}.endTime`, 'must be later than startTime');
  });
  body.overrides?.forEach((o, i) => {
    if (o.endTime <= o.startTime) throw invalid(`overrides.${i}.endTime`, 'must be later than startTime');
  });
}

function changes(body: Partial<ScheduleInput>, now: number): ScheduleChanges {
  checkRanges(body);
  return {
    ...(body.name !== undefined ? { name: body.name.trim() } : {}),
    ...(body.timeZone !== undefined ? { timeZone: body.timeZone } : {}),
    ...(body.availability !== undefined ? { availability: body.availability } : {}),
    ...(body.overrides !== undefined ? { overrides: body.overrides } : {}),
    updatedAt: now,
  };
}

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
      await memberOfPath(deps, call);
      return handler.handle(call);
    },
  };
}

/** List, create, read, change and delete the schedules of a user, a team or an organization. */
function scheduleRoutes(deps: PlatformDeps, kind: Kind) {
  const access = scheduleAccess(deps, kind);
  return {
    ...readScheduleRoutes(deps, access),
    create: createScheduleRoute(deps, kind, access),
    update: updateScheduleRoute(deps, kind, access),
    delete: deleteScheduleRoute(deps, access),
  };
}

interface ScheduleAccess {
  scope: (call: Call) => ScheduleScope;
  /** A schedule of the scope, or 404: another owner's schedule is as absent as a missing one. */
  load: (scope: ScheduleScope, id: string) => Promise<Schedule>;
}

function scheduleAccess(deps: PlatformDeps, kind: Kind): ScheduleAccess {
  const schedules = deps.services.stores.api.schedules;
  const load = async (scope: ScheduleScope, id: string) => {
    const found = await schedules.find(scope, id);
    if (found === undefined) throw notFound('schedule');
    return found;
  };
  const scope = (call: Call): ScheduleScope =>
    kind === 'user' || kind === 'member' ? { userId: ownerOf(kind, call) } : kind === 'team' ? { teamId: call.facts.team!.id } : { organizationId: call.facts.organization!.id };
  return { scope, load };
}

function readScheduleRoutes(deps: PlatformDeps, { scope, load }: ScheduleAccess) {
  const schedules = deps.services.stores.api.schedules;
  return {
    list: route<unknown, ListQuery>({
      query: listQuery(),
      data: arrayOf(scheduleView, 0, 100),
      handle: async (call) => (await schedules.list(scope(call), call.query.limit, call.query.offset)).map(schedule),
    }),
    get: route<unknown, unknown, { scheduleId: string }>({ data: scheduleView, handle: async (call) => schedule(await load(scope(call), call.params.scheduleId)) }),
  };
}

/**
 * The user's default schedule (the one GET /v2/me names), or null when they have none yet, as
 * the platform answers: a missing default is a state of the account, not a missing resource.
 */
function defaultScheduleRoute(deps: PlatformDeps) {
  const { profiles, schedules } = deps.services.stores.api;
  return route({
    data: nullable(scheduleView),
    handle: async ({ userId }) => {
      const scheduleId = (await profiles.find(userId))?.defaultScheduleId;
      const found = scheduleId == null ? undefined : await schedules.find({ userId }, scheduleId);
      return found === undefined ? null : schedule(found);
    },
  });
}

function createScheduleRoute(deps: PlatformDeps, kind: Kind, { scope, load }: ScheduleAccess) {
  const { clock, stores } = deps.services;
  return route<ScheduleInput>({
    body: object(kind === 'user' || kind === 'member' ? personalFields : fields, ['name', 'timeZone']),
    data: scheduleView,
    status: 201,
    handle: async (call) => {
      const now = clock();
      const id = await stores.ids.next('schedules');
      const created = {
        id,
        ownerId: kind === 'user' || kind === 'member' ? ownerOf(kind, call) : null,
        teamId: kind === 'team' ? call.facts.team!.id : null,
        availability: [],
        overrides: [],
        createdAt: now,
        name: call.body.name.trim(),
        timeZone: call.body.timeZone,
        ...changes(call.body, now),
      };
      await stores.transaction(async (tx) => {
        await tx.api.schedules.insert(created);
        // A user's first schedule becomes their default (GET /v2/me defaultScheduleId).
        if (kind === 'user' || kind === 'member') await tx.api.schedules.setDefault(ownerOf(kind, call), id, call.body.isDefault !== true);
      });
      return schedule(await load(scope(call), id));
    },
  });
}

function updateScheduleRoute(deps: PlatformDeps, kind: Kind, { scope, load }: ScheduleAccess) {
  const { clock, stores } = deps.services;
  return route<Partial<ScheduleInput>, unknown, { scheduleId: string }>({
    body: patchOf(kind === 'user' || kind === 'member' ? personalFields : fields),
    data: scheduleView,
    handle: async (call) => {
      const current = await load(scope(call), call.params.scheduleId);
      await stores.transaction(async (tx) => {
        await tx.api.schedules.update(current.id, changes(call.body, clock()));
        // A team's schedule is nobody's default: only a personal one (the caller's or the path's member's) can be.
        if (current.ownerId !== null && call.body.isDefault === true) await tx.api.schedules.setDefault(current.ownerId, current.id, false);
        if (current.ownerId !== null && call.body.isDefault === false && current.isDefault) await tx.api.schedules.clearDefault(current.ownerId);
      });
      return schedule(await load(scope(call), current.id));
    },
  });
}

function deleteScheduleRoute(deps: PlatformDeps, { scope, load }: ScheduleAccess) {
  const { stores } = deps.services;
  return route<unknown, unknown, { scheduleId: string }>({
    data: deletedNumbered,
    handle: async (call) => {
      const current = await load(scope(call), call.params.scheduleId);
      await stores.transaction((tx) => tx.api.schedules.delete(current.id));
      return { id: current.id, deleted: true };
    },
  });
}
