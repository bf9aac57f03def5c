// Schedules (availability) of a user (SCHEDULE_*), a team (TEAM_SCHEDULE_*) and across an
// organization (ORG_SCHEDULE_*).
import type { AppContext } from '../../http/context.ts';
import { randomId } from '../../oauth/token-format.ts';
import * as repo from '../../storage/repositories/schedules.ts';
import type { ScheduleRow, ScheduleScope } from '../../storage/repositories/schedules.ts';
import { inTransaction } from '../../storage/transaction.ts';
import { route, type HandlerMap } from '../handler.ts';
import { checkTimeZone, invalid, iso, notFound, parseJson } from '../input.ts';
import { arrayOf, bool, deleted, listQuery, nullable, object, patchOf, str, timeZone, type JsonSchema, type Page } from '../schemas.ts';
import { WEEK_DAYS } from './me.ts';

interface Range {
  days: string[];
  startTime: string;
  endTime: string;
}
interface Override {
  date: string;
  startTime: string;
  endTime: string;
}

const time = { type: 'string', pattern: '^([01][0-9]|2[0-3]):[0-5][0-9]$', description: 'HH:MM, 24-hour' };
const endTime = { type: 'string', pattern: '^(([01][0-9]|2[0-3]):[0-5][0-9]|24:00)$', description: 'HH:MM, 24-hour; 24:00 is the end of the day' };
const rangeSchema = object({ days: { ...arrayOf({ type: 'string', enum: WEEK_DAYS }, 1, 7), uniqueItems: true }, startTime: time, endTime }, ['days', 'startTime', 'endTime']);
const overrideSchema = object({ date: { type: 'string', format: 'date' }, startTime: time, endTime }, ['date', 'startTime', 'endTime']);

const scheduleView: JsonSchema = object(
  {
    id: { type: 'string' },
    name: { type: 'string' },
    timeZone: { type: 'string' },
    availability: arrayOf(rangeSchema, 0, 50),
    overrides: arrayOf(overrideSchema, 0, 100),
    isDefault: bool,
    ownerId: nullable({ type: 'string' }),
    teamId: nullable({ type: 'string' }),
    createdAt: { type: 'string' },
    updatedAt: { type: 'string' },
  },
  ['id', 'name', 'timeZone', 'availability', 'overrides', 'isDefault', 'ownerId', 'teamId', 'createdAt', 'updatedAt'],
);

function schedule(s: ScheduleRow) {
  return {
    id: s.id,
    name: s.name,
    timeZone: s.time_zone,
    availability: parseJson<Range[]>(s.availability),
    overrides: parseJson<Override[]>(s.overrides),
    isDefault: s.is_default,
    ownerId: s.user_id,
    teamId: s.team_id,
    createdAt: iso(s.created_at),
    updatedAt: iso(s.updated_at),
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

function changes(body: Partial<ScheduleInput>, now: number) {
  checkRanges(body);
  return {
    ...(body.name !== undefined ? { name: body.name.trim() } : {}),
    ...(body.timeZone !== undefined ? { time_zone: body.timeZone } : {}),
    ...(body.availability !== undefined ? { availability: JSON.stringify(body.availability) } : {}),
    ...(body.overrides !== undefined ? { overrides: JSON.stringify(body.overrides) } : {}),
    updated_at: now,
  };
}

type Call = { userId: string; facts: { team?: { id: string } | null; organization?: { id: string } | null } };

export function scheduleHandlers(ctx: AppContext): HandlerMap {
  const { db, clock } = ctx.services;

  const load = async (scope: ScheduleScope, id: string) => {
    const row = await repo.findSchedule(db, scope, id);
    if (row === undefined) throw notFound('schedule');
    return row;
  };

  const crud = (kind: 'user' | 'team' | 'organization') => {
    const scope = (c: Call): ScheduleScope =>
      kind === 'user' ? { userId: c.userId } : kind === 'team' ? { teamId: c.facts.team!.id } : { organizationId: c.facts.organization!.id };
    return {
      list: route<unknown, Page>({
        query: listQuery(),
        data: arrayOf(scheduleView, 0, 100),
        handle: async (c) => (await repo.listSchedules(db, scope(c), c.query.limit, c.query.offset)).map(schedule),
      }),
      create: route<ScheduleInput>({
        body: object(kind === 'user' ? personalFields : fields, ['name', 'timeZone']),
        data: scheduleView,
        status: 201,
        handle: async (c) => {
          const now = clock();
          const id = randomId();
          const row = {
            id,
            user_id: kind === 'user' ? c.userId : null,
            team_id: kind === 'team' ? c.facts.team!.id : null,
            availability: '[]',
            overrides: '[]',
            created_at: now,
            name: c.body.name.trim(),
            time_zone: c.body.timeZone,
            ...changes(c.body, now),
          };
          await inTransaction(db, async (trx) => {
            await repo.insertSchedule(trx, row);
            // A user's first schedule becomes their default (GET /v2/me defaultScheduleId).
            if (kind === 'user') await repo.setDefaultSchedule(trx, c.userId, id, c.body.isDefault !== true);
          });
          return schedule((await repo.findSchedule(db, scope(c), id))!);
        },
      }),
      get: route<unknown, unknown, { scheduleId: string }>({ data: scheduleView, handle: async (c) => schedule(await load(scope(c), c.params.scheduleId)) }),
      update: route<Partial<ScheduleInput>, unknown, { scheduleId: string }>({
        body: patchOf(kind === 'user' ? personalFields : fields),
        data: scheduleView,
        handle: async (c) => {
          const current = await load(scope(c), c.params.scheduleId);
          await inTransaction(db, async (trx) => {
            await repo.updateSchedule(trx, current.id, changes(c.body, clock()));
            if (c.body.isDefault === true) await repo.setDefaultSchedule(trx, c.userId, current.id, false);
            if (c.body.isDefault === false && current.is_default) await trx.updateTable('users').set({ default_schedule_id: null }).where('id', '=', c.userId).execute();
          });
          return schedule(await load(scope(c), current.id));
        },
      }),
      delete: route<unknown, unknown, { scheduleId: string }>({
        data: deleted,
        handle: async (c) => {
          const current = await load(scope(c), c.params.scheduleId);
          await inTransaction(db, (trx) => repo.deleteSchedule(trx, current.id));
          return { id: current.id, deleted: true };
        },
      }),
    };
  };

  const mine = crud('user');
  const team = crud('team');
  const org = crud('organization');
  return {
    'schedules.list': mine.list,
    'schedules.create': mine.create,
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
  };
}
