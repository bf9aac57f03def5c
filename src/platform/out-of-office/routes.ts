// Out-of-office entries (docs/rules.md#out-of-office) of the token's user (SCHEDULE_*), of a
// team's member (TEAM_SCHEDULE_*) and of an organization's users (ORG_SCHEDULE_*). The team
// and organization routes name the user in the path; one who is not an accepted member
// there is answered as an unknown user (404), so the routes reveal no one outside.
import type { PlatformDeps } from '../deps.ts';
import type { AccessFacts } from '../membership.ts';
import { route, type HandlerMap } from '../handler.ts';
import { memberOfPath } from '../path-member.ts';
import { iso } from '../input.ts';
import { arrayOf, dateTime, email, int, listQuery, nullable, numberedId, numberedIdInput, object, patchOf, str, type JsonSchema, type ListQuery } from '../schemas.ts';
import { changeEntry, createEntry, deleteEntry, findEntry, listEntries, listOrganizationEntries, OOO_REASONS, type OooInput, type OooOrder, type OutOfOfficeEntry } from './service.ts';

const text = { type: 'string' };
const reason: JsonSchema = { type: 'string', enum: [...OOO_REASONS], description: 'Why the user is away; unspecified when not given' };

const oooView: JsonSchema = object(
  {
    id: numberedId,
    uuid: text,
    userId: { ...numberedId, description: 'The user who is out of office' },
    toUserId: { ...numberedId, description: 'Who covers while they are away; absent when no one does' },
    start: { ...text, format: 'date-time' },
    end: { ...text, format: 'date-time' },
    notes: { ...text, description: 'Absent when none were given' },
    reason,
  },
  ['id', 'uuid', 'userId', 'start', 'end', 'reason'],
);

/** The platform types toUserId and notes as a number and a string, never null: a missing one is left out. */
const view = (e: OutOfOfficeEntry) => ({
  id: e.id,
  uuid: e.uuid,
  userId: e.userId,
  ...(e.toUserId !== null ? { toUserId: e.toUserId } : {}),
  start: iso(e.start),
  end: iso(e.end),
  ...(e.notes !== null ? { notes: e.notes } : {}),
  reason: e.reason,
});

const fields = {
  start: { ...dateTime, description: 'When the absence starts (ISO 8601)' },
  end: { ...dateTime, description: 'When it ends (ISO 8601); later than start' },
  notes: str(0, 500),
  toUserId: { ...numberedIdInput, description: 'Who covers: an accepted member of a team or organization the user is in, not the user' },
  reason,
};
const newEntry = object(fields, ['start', 'end']);
const entryPatch = patchOf({ ...fields, toUserId: { ...nullable(numberedIdInput), description: 'Who covers; null for no one' } });

const order = { type: 'string', enum: ['asc', 'desc'] };
/** The platform pages out-of-office lists up to 250 (the registrar folds take/skip into limit/offset). */
const oooListFields = {
  take: int(1, 250, { description: 'As limit, up to 250; wins over limit when both are sent' }),
  sortStart: { ...order, description: 'Order by start' },
  sortEnd: { ...order, description: 'Order by end (after start when both are sent)' },
};

type OooQuery = ListQuery & OooOrder & { email?: string };
const sorting = (q: OooQuery): OooOrder => ({ ...(q.sortStart ? { sortStart: q.sortStart } : {}), ...(q.sortEnd ? { sortEnd: q.sortEnd } : {}) });

type Kind = 'user' | 'team' | 'organization';
type Params = { userId?: string; oooId?: string };

export function outOfOfficeHandlers(deps: PlatformDeps): HandlerMap {
  const mine = oooRoutes(deps, 'user');
  const team = oooRoutes(deps, 'team');
  const org = oooRoutes(deps, 'organization');
  return {
    'ooo.list': mine.list,
    'ooo.create': mine.create,
    'ooo.update': mine.update,
    'ooo.delete': mine.delete,
    'teamOoo.list': team.list,
    'teamOoo.create': team.create,
    'teamOoo.update': team.update,
    'teamOoo.delete': team.delete,
    'orgOoo.listAll': organizationListRoute(deps),
    'orgOoo.list': org.list,
    'orgOoo.create': org.create,
    'orgOoo.update': org.update,
    'orgOoo.delete': org.delete,
  };
}

/**
 * Whose entries the call reaches (docs/rules.md#out-of-office): the token's user on the personal
 * routes; on the others, the path's user, who must be an accepted member of the path's team or
 * organization (a pending invitee is not, docs/rules.md#membership-invitations).
 */
function subjectOf(deps: PlatformDeps, kind: Kind) {
  return async (call: { userId: string; params: Params; facts: AccessFacts }): Promise<string> => (kind === 'user' ? call.userId : memberOfPath(deps.services, call));
}

function oooRoutes(deps: PlatformDeps, kind: Kind) {
  const ctx = deps.services;
  const subject = subjectOf(deps, kind);
  return {
    list: route<unknown, OooQuery, Params>({
      query: listQuery(oooListFields),
      data: arrayOf(oooView, 0, 250),
      handle: async (call) => (await listEntries(ctx, await subject(call), sorting(call.query), call.query.limit, call.query.offset)).map(view),
    }),
    create: route<OooInput, unknown, Params>({
      body: newEntry,
      data: oooView,
      status: 201,
      handle: async (call) => view(await createEntry(ctx, await subject(call), call.body)),
    }),
    update: route<Partial<OooInput>, unknown, Params>({
      body: entryPatch,
      data: oooView,
      handle: async (call) => view(await changeEntry(ctx, await findEntry(ctx, await subject(call), call.params.oooId!), call.body)),
    }),
    // The deleted entry, as the platform answers.
    delete: route<unknown, unknown, Params>({
      data: oooView,
      handle: async (call) => view(await deleteEntry(ctx, await subject(call), call.params.oooId!)),
    }),
  };
}

/** Every accepted member's entries, or one member's by e-mail: an address outside the organization lists nothing. */
function organizationListRoute(deps: PlatformDeps) {
  return route<unknown, OooQuery>({
    query: listQuery({ ...oooListFields, email: { ...email, description: "Only this member's entries" } }),
    data: arrayOf(oooView, 0, 250),
    handle: async ({ facts, query }) => {
      const filter = query.email !== undefined ? { email: query.email } : {};
      return (await listOrganizationEntries(deps.services, facts.organization!.id, filter, sorting(query), query.limit, query.offset)).map(view);
    },
  });
}
