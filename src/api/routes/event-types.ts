// Event types of a user (EVENT_TYPE_*), of a team (TEAM_EVENT_TYPE_*) and across an
// organization (ORG_EVENT_TYPE_*), and the private links that let people book hidden ones.
import type { AppContext } from '../../http/context.ts';
import { randomId } from '../../oauth/token-format.ts';
import { isUniqueViolation } from '../../storage/errors.ts';
import * as repo from '../../storage/repositories/event-types.ts';
import type { EventTypeOwner, EventTypeRow, PrivateLinkRow } from '../../storage/repositories/event-types.ts';
import { route, type HandlerMap } from '../handler.ts';
import { conflict, iso, isoOrNull, notFound, parseJson, toMillis, invalid } from '../input.ts';
import { arrayOf, bool, dateTime, deleted, int, listQuery, nullable, object, patchOf, str, type JsonSchema, type Page } from '../schemas.ts';

interface Location {
  type: 'address' | 'link' | 'phone' | 'integration';
  value: string;
}

const locationSchema = object({ type: { type: 'string', enum: ['address', 'link', 'phone', 'integration'] }, value: str(1, 500) }, ['type', 'value']);

const eventTypeView: JsonSchema = object(
  {
    id: { type: 'string' },
    title: { type: 'string' },
    slug: { type: 'string' },
    description: { type: 'string' },
    lengthInMinutes: { type: 'integer' },
    locations: arrayOf(locationSchema, 0, 10),
    hidden: bool,
    requiresConfirmation: bool,
    minimumBookingNotice: { type: 'integer' },
    schedulingType: nullable({ type: 'string' }),
    ownerId: nullable({ type: 'string' }),
    teamId: nullable({ type: 'string' }),
    createdAt: { type: 'string' },
    updatedAt: { type: 'string' },
  },
  ['id', 'title', 'slug', 'description', 'lengthInMinutes', 'locations', 'hidden', 'requiresConfirmation', 'minimumBookingNotice', 'schedulingType', 'ownerId', 'teamId', 'createdAt', 'updatedAt'],
);

export function eventType(e: EventTypeRow) {
  return {
    id: e.id,
    title: e.title,
    slug: e.slug,
    description: e.description,
    lengthInMinutes: e.length_minutes,
    locations: parseJson<Location[]>(e.locations),
    hidden: e.hidden === 1,
    requiresConfirmation: e.requires_confirmation === 1,
    minimumBookingNotice: e.minimum_booking_notice,
    schedulingType: e.scheduling_type,
    ownerId: e.user_id,
    teamId: e.team_id,
    createdAt: iso(e.created_at),
    updatedAt: iso(e.updated_at),
  };
}

const fields = {
  title: str(1, 200),
  slug: str(1, 100, { pattern: '^[a-z0-9]+(-[a-z0-9]+)*$' }),
  description: str(0, 5000),
  lengthInMinutes: int(1, 1440),
  locations: arrayOf(locationSchema, 0, 10),
  hidden: bool,
  requiresConfirmation: bool,
  minimumBookingNotice: int(0, 525_600, { description: 'minutes' }),
};
const teamFields = { ...fields, schedulingType: { type: 'string', enum: ['collective', 'roundRobin'] } };

interface EventTypeInput {
  title: string;
  slug: string;
  description?: string;
  lengthInMinutes: number;
  locations?: Location[];
  hidden?: boolean;
  requiresConfirmation?: boolean;
  minimumBookingNotice?: number;
  schedulingType?: 'collective' | 'roundRobin';
}

function checkLocations(locations: Location[] | undefined): void {
  locations?.forEach((l, i) => {
    if (l.type === 'link' && !/^https?:\/\/\S+$/.test(l.value)) throw invalid(`locations.${i}.value`, 'a link location must be an http(s) URL');
  });
}

function changes(body: Partial<EventTypeInput>, now: number) {
  checkLocations(body.locations);
  return {
    ...(body.title !== undefined ? { title: body.title.trim() } : {}),
    ...(body.slug !== undefined ? { slug: body.slug } : {}),
    ...(body.description !== undefined ? { description: body.description } : {}),
    ...(body.lengthInMinutes !== undefined ? { length_minutes: body.lengthInMinutes } : {}),
    ...(body.locations !== undefined ? { locations: JSON.stringify(body.locations) } : {}),
    ...(body.hidden !== undefined ? { hidden: body.hidden ? 1 : 0 } : {}),
    ...(body.requiresConfirmation !== undefined ? { requires_confirmation: body.requiresConfirmation ? 1 : 0 } : {}),
    ...(body.minimumBookingNotice !== undefined ? { minimum_booking_notice: body.minimumBookingNotice } : {}),
    ...(body.schedulingType !== undefined ? { scheduling_type: body.schedulingType } : {}),
    updated_at: now,
  };
}

const slugTaken = (slug: string | undefined) => conflict(`slug: an event type with slug "${slug}" already exists here`);

const privateLinkView: JsonSchema = object(
  {
    id: { type: 'string' },
    eventTypeId: { type: 'string' },
    hash: { type: 'string' },
    bookingUrl: { type: 'string' },
    expiresAt: nullable({ type: 'string' }),
    maxUsageCount: nullable({ type: 'integer' }),
    usageCount: { type: 'integer' },
    createdAt: { type: 'string' },
  },
  ['id', 'eventTypeId', 'hash', 'bookingUrl', 'expiresAt', 'maxUsageCount', 'usageCount', 'createdAt'],
);

export function eventTypeHandlers(ctx: AppContext): HandlerMap {
  const { db, clock } = ctx.services;

  const loadOwned = async (owner: EventTypeOwner, id: string) => {
    const row = await repo.findOwnedEventType(db, owner, id);
    if (row === undefined) throw notFound('event type');
    return row;
  };

  const privateLink = (l: PrivateLinkRow) => ({
    id: l.id,
    eventTypeId: l.event_type_id,
    hash: l.link_hash,
    bookingUrl: `${ctx.config.appUrl}/d/${l.link_hash}`,
    expiresAt: isoOrNull(l.expires_at),
    maxUsageCount: l.max_uses,
    usageCount: l.use_count,
    createdAt: iso(l.created_at),
  });

  const ownedBy = (kind: 'user' | 'team') => (call: { userId: string; facts: { team?: { id: string } | null } }): EventTypeOwner =>
    kind === 'user' ? { userId: call.userId } : { teamId: call.facts.team!.id };

  const crud = (kind: 'user' | 'team') => {
    const owner = ownedBy(kind);
    return {
      list: route<unknown, Page>({
        query: listQuery(),
        data: arrayOf(eventTypeView, 0, 100),
        handle: async (call) => (await repo.listEventTypes(db, owner(call), call.query.limit, call.query.offset)).map(eventType),
      }),
      create: route<EventTypeInput>({
        body: object(kind === 'user' ? fields : teamFields, ['title', 'slug', 'lengthInMinutes']),
        data: eventTypeView,
        status: 201,
        handle: async (call) => {
          const now = clock();
          const o = owner(call);
          const row: EventTypeRow = {
            id: randomId(),
            user_id: 'userId' in o ? o.userId : null,
            team_id: 'teamId' in o ? o.teamId : null,
            title: '',
            slug: '',
            description: '',
            length_minutes: 0,
            locations: '[]',
            hidden: 0,
            requires_confirmation: 0,
            minimum_booking_notice: 0,
            scheduling_type: kind === 'team' ? 'collective' : null,
            created_at: now,
            ...changes(call.body, now),
          };
          try {
            await repo.insertEventType(db, row);
          } catch (error) {
            if (isUniqueViolation(error)) throw slugTaken(call.body.slug);
            throw error;
          }
          return eventType(row);
        },
      }),
      get: route<unknown, unknown, { eventTypeId: string }>({
        data: eventTypeView,
        handle: async (call) => eventType(await loadOwned(owner(call), call.params.eventTypeId)),
      }),
      update: route<Partial<EventTypeInput>, unknown, { eventTypeId: string }>({
        body: patchOf(kind === 'user' ? fields : teamFields),
        data: eventTypeView,
        handle: async (call) => {
          const current = await loadOwned(owner(call), call.params.eventTypeId);
          try {
            return eventType((await repo.updateEventType(db, current.id, changes(call.body, clock())))!);
          } catch (error) {
            if (isUniqueViolation(error)) throw slugTaken(call.body.slug);
            throw error;
          }
        },
      }),
      delete: route<unknown, unknown, { eventTypeId: string }>({
        data: deleted,
        handle: async (call) => {
          const current = await loadOwned(owner(call), call.params.eventTypeId);
          await repo.deleteEventType(db, current.id);
          return { id: current.id, deleted: true };
        },
      }),
    };
  };

  const mine = crud('user');
  const team = crud('team');
  return {
    'eventTypes.list': mine.list,
    'eventTypes.create': mine.create,
    'eventTypes.get': mine.get,
    'eventTypes.update': mine.update,
    'eventTypes.delete': mine.delete,
    'teamEventTypes.list': team.list,
    'teamEventTypes.create': team.create,
    'teamEventTypes.get': team.get,
    'teamEventTypes.update': team.update,
    'teamEventTypes.delete': team.delete,

    'privateLinks.list': route<unknown, unknown, { eventTypeId: string }>({
      data: arrayOf(privateLinkView, 0, 100),
      handle: async ({ userId, params }) => {
        const et = await loadOwned({ userId }, params.eventTypeId);
        return (await repo.listPrivateLinks(db, et.id)).map(privateLink);
      },
    }),
    'privateLinks.create': route<{ expiresAt?: string; maxUsageCount?: number }, unknown, { eventTypeId: string }>({
      body: object({ expiresAt: dateTime, maxUsageCount: int(1, 100_000) }),
      data: privateLinkView,
      status: 201,
      handle: async ({ userId, params, body }) => {
        const et = await loadOwned({ userId }, params.eventTypeId);
        const now = clock();
        const expiresAt = body.expiresAt !== undefined ? toMillis(body.expiresAt, 'expiresAt') : null;
        if (expiresAt !== null && expiresAt <= now) throw invalid('expiresAt', 'must be in the future');
        const row: PrivateLinkRow = {
          id: randomId(),
          event_type_id: et.id,
          // 192 random bits: unguessable; shown to the host, who shares it.
          link_hash: randomId(24),
          expires_at: expiresAt,
          max_uses: body.maxUsageCount ?? null,
          use_count: 0,
          created_at: now,
        };
        await repo.insertPrivateLink(db, row);
        return privateLink(row);
      },
    }),
    'privateLinks.delete': route<unknown, unknown, { eventTypeId: string; linkId: string }>({
      data: deleted,
      handle: async ({ userId, params }) => {
        const et = await loadOwned({ userId }, params.eventTypeId);
        if (!(await repo.deletePrivateLink(db, et.id, params.linkId))) throw notFound('private link');
        return { id: params.linkId, deleted: true };
      },
    }),

    'orgEventTypes.list': route<unknown, Page>({
      query: listQuery(),
      data: arrayOf(eventTypeView, 0, 100),
      handle: async ({ facts, query }) => (await repo.listOrganizationEventTypes(db, facts.organization!.id, query.limit, query.offset)).map(eventType),
    }),
    'orgEventTypes.update': route<Partial<EventTypeInput>, unknown, { eventTypeId: string }>({
      body: patchOf(teamFields),
      data: eventTypeView,
      handle: async ({ facts, params, body }) => {
        const current = await repo.findOrganizationEventType(db, facts.organization!.id, params.eventTypeId);
        if (current === undefined) throw notFound('event type in this organization');
        if (body.schedulingType !== undefined && current.team_id === null) throw invalid('schedulingType', 'applies to team event types only');
        try {
          return eventType((await repo.updateEventType(db, current.id, changes(body, clock())))!);
        } catch (error) {
          if (isUniqueViolation(error)) throw slugTaken(body.slug);
          throw error;
        }
      },
    }),
    'orgEventTypes.delete': route<unknown, unknown, { eventTypeId: string }>({
      data: deleted,
      handle: async ({ facts, params }) => {
        const current = await repo.findOrganizationEventType(db, facts.organization!.id, params.eventTypeId);
        if (current === undefined) throw notFound('event type in this organization');
        await repo.deleteEventType(db, current.id);
        return { id: current.id, deleted: true };
      },
    }),
  };
}
