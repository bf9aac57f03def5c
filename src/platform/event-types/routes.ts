// Event types of a user (EVENT_TYPE_*), of a team (TEAM_EVENT_TYPE_*) and across an
// organization (ORG_EVENT_TYPE_*), and the private links that let people book hidden ones.
import type { PlatformDeps } from '../deps.ts';
import { randomId } from '../authorization-server.ts';
import { route, type HandlerMap } from '../handler.ts';
import { conflict, iso, isoOrNull, notFound, toMillis, invalid } from '../input.ts';
import type { EventType, EventTypeChanges, EventTypeLocation, EventTypeOwner, EventTypeStore, PrivateLink } from './store.ts';
import { deletedEventType, deletedEventTypeView, eventTypeView, eventTypeViewOf, eventTypeViews } from './view.ts';
import { arrayOf, bool, dateTime, deleted, int, listQuery, nullable, numberedId, object, patchOf, str, type JsonSchema, type ListQuery } from '../schemas.ts';

type Location = EventTypeLocation;

/**
 * A place as Gatehouse writes it (`{type, value}`) or as the platform does (`{type: 'address',
 * address}`, `link`, `phone`, `integration`, with `public`, which Gatehouse keeps nothing of).
 */
const locationSchema = object({
  type: { type: 'string', enum: ['address', 'link', 'phone', 'integration'] },
  value: str(1, 500),
  address: str(1, 500),
  link: str(1, 500),
  phone: str(1, 500),
  integration: str(1, 500),
  public: bool,
}, ['type']);

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
  locations?: LocationInput[];
  hidden?: boolean;
  requiresConfirmation?: boolean;
  minimumBookingNotice?: number;
  schedulingType?: 'collective' | 'roundRobin';
}

/** A place as sent, in either writing. */
type LocationInput = { type: Location['type']; value?: string; address?: string; link?: string; phone?: string; integration?: string; public?: boolean };

/** The places as Gatehouse keeps them: the platform's field of the type is the value. */
function readLocations(locations: LocationInput[]): Location[] {
  return locations.map((l, i) => {
    const value = l.value ?? l[l.type];
    if (value === undefined) throw invalid(`locations.${i}.${l.type}`, `a ${l.type} location needs its ${l.type} (or value)`);
    if (l.type === 'link' && !/^https?:\/\/\S+$/.test(value)) throw invalid(`locations.${i}.value`, 'a link location must be an http(s) URL');
    return { type: l.type, value };
  });
}

function changes(body: Partial<EventTypeInput>, now: number): EventTypeChanges {
  return {
    ...(body.title !== undefined ? { title: body.title.trim() } : {}),
    ...(body.slug !== undefined ? { slug: body.slug } : {}),
    ...(body.description !== undefined ? { description: body.description } : {}),
    ...(body.lengthInMinutes !== undefined ? { lengthMinutes: body.lengthInMinutes } : {}),
    ...(body.locations !== undefined ? { locations: readLocations(body.locations) } : {}),
    ...(body.hidden !== undefined ? { hidden: body.hidden } : {}),
    ...(body.requiresConfirmation !== undefined ? { requiresConfirmation: body.requiresConfirmation } : {}),
    ...(body.minimumBookingNotice !== undefined ? { minimumBookingNotice: body.minimumBookingNotice } : {}),
    ...(body.schedulingType !== undefined ? { schedulingType: body.schedulingType } : {}),
    updatedAt: now,
  };
}

const slugTaken = (slug: string | undefined) => conflict(`slug: an event type with slug "${slug}" already exists here`);

/** A new event type of the owner, from the create body over the defaults. */
function newEventType(id: string, owner: EventTypeOwner, kind: 'user' | 'team', body: EventTypeInput, now: number): EventType {
  return {
    id,
    ownerId: 'userId' in owner ? owner.userId : null,
    teamId: 'teamId' in owner ? owner.teamId : null,
    title: '',
    slug: '',
    description: '',
    lengthMinutes: 0,
    locations: [],
    hidden: false,
    requiresConfirmation: false,
    minimumBookingNotice: 0,
    schedulingType: kind === 'team' ? 'collective' : null,
    createdAt: now,
    ...changes(body, now),
  };
}

/** Applies the changes; a slug the owner already uses is a conflict naming it. */
async function saveChanges(store: EventTypeStore, id: string, body: Partial<EventTypeInput>, now: number): Promise<EventType> {
  const saved = await store.update(id, changes(body, now));
  if (saved === 'slugTaken') throw slugTaken(body.slug);
  if (saved === undefined) throw notFound('event type');
  return saved;
}

const privateLinkView: JsonSchema = object(
  {
    id: { type: 'string' },
    /** The platform's name for the link's id. */
    linkId: { type: 'string' },
    eventTypeId: numberedId,
    hash: { type: 'string' },
    bookingUrl: { type: 'string' },
    expiresAt: nullable({ type: 'string' }),
    maxUsageCount: nullable({ type: 'integer' }),
    usageCount: { type: 'integer' },
    isExpired: bool,
    createdAt: { type: 'string' },
  },
  ['id', 'linkId', 'eventTypeId', 'hash', 'bookingUrl', 'expiresAt', 'maxUsageCount', 'usageCount', 'isExpired', 'createdAt'],
);

/** Who owns the event types of a route: the token's user, or the path's team. */
const ownedBy = (kind: 'user' | 'team') => (call: { userId: string; facts: { team?: { id: string } | null } }): EventTypeOwner =>
  kind === 'user' ? { userId: call.userId } : { teamId: call.facts.team!.id };

export function eventTypeHandlers(deps: PlatformDeps): HandlerMap {
  const store = deps.services.stores.api.eventTypes;
  const loadOwned = async (owner: EventTypeOwner, id: string) => {
    const found = await store.findOwned(owner, id);
    if (found === undefined) throw notFound('event type');
    return found;
  };
  const mine = ownedEventTypeRoutes(deps, 'user', loadOwned);
  const team = ownedEventTypeRoutes(deps, 'team', loadOwned);
  const myLinks = privateLinkRoutes(deps, 'user', loadOwned);
  const teamLinks = privateLinkRoutes(deps, 'team', loadOwned);
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
    'privateLinks.list': myLinks.list,
    'privateLinks.create': myLinks.create,
    'privateLinks.update': myLinks.update,
    'privateLinks.delete': myLinks.delete,
    'teamPrivateLinks.list': teamLinks.list,
    'teamPrivateLinks.create': teamLinks.create,
    'teamPrivateLinks.update': teamLinks.update,
    'teamPrivateLinks.delete': teamLinks.delete,
    ...organizationEventTypeRoutes(deps),
  };
}

type LoadOwned = (owner: EventTypeOwner, id: string) => Promise<EventType>;

/** List, create, read, change and delete: the same five routes for a user's and a team's. */
function ownedEventTypeRoutes(deps: PlatformDeps, kind: 'user' | 'team', loadOwned: LoadOwned) {
  const { clock } = deps.services;
  const store = deps.services.stores.api.eventTypes;
  const owner = ownedBy(kind);
  return {
    list: route<unknown, ListQuery>({
      query: listQuery(),
      data: arrayOf(eventTypeView, 0, 100),
      handle: async (call) => eventTypeViews(deps, await store.list(owner(call), call.query.limit, call.query.offset)),
    }),
    create: route<EventTypeInput>({
      body: object(kind === 'user' ? fields : teamFields, ['title', 'slug', 'lengthInMinutes']),
      data: eventTypeView,
      status: 201,
      handle: async (call) => {
        const created = newEventType(await deps.services.stores.ids.next('event_types'), owner(call), kind, call.body, clock());
        if ((await store.insert(created)) === 'slugTaken') throw slugTaken(call.body.slug);
        return eventTypeViewOf(deps, created);
      },
    }),
    get: route<unknown, unknown, { eventTypeId: string }>({
      data: eventTypeView,
      handle: async (call) => eventTypeViewOf(deps, await loadOwned(owner(call), call.params.eventTypeId)),
    }),
    update: route<Partial<EventTypeInput>, unknown, { eventTypeId: string }>({
      body: patchOf(kind === 'user' ? fields : teamFields),
      data: eventTypeView,
      handle: async (call) => {
        const current = await loadOwned(owner(call), call.params.eventTypeId);
        return eventTypeViewOf(deps, await saveChanges(store, current.id, call.body, clock()));
      },
    }),
    delete: route<unknown, unknown, { eventTypeId: string }>({
      data: deletedEventTypeView,
      handle: async (call) => {
        const current = await loadOwned(owner(call), call.params.eventTypeId);
        await store.delete(current.id);
        return deletedEventType(current);
      },
    }),
  };
}

/** The links that let people book a hidden event type of the token's user. */
/**
 * The private links of an event type of the token's user or of the path's team: list, create,
 * change (expiry, uses allowed) and delete. A link made with neither an expiry nor a number of
 * uses is good for one booking, as the platform makes it.
 */
function privateLinkRoutes(deps: PlatformDeps, kind: 'user' | 'team', loadOwned: LoadOwned) {
  const { clock } = deps.services;
  const store = deps.services.stores.api.eventTypes;
  const owner = ownedBy(kind);
  const privateLink = (l: PrivateLink) => ({
    id: l.id,
    linkId: l.id,
    eventTypeId: l.eventTypeId,
    hash: l.hash,
    bookingUrl: `${deps.config.appUrl}/d/${l.hash}`,
    expiresAt: isoOrNull(l.expiresAt),
    maxUsageCount: l.maxUses,
    usageCount: l.useCount,
    isExpired: (l.expiresAt !== null && l.expiresAt <= clock()) || (l.maxUses !== null && l.useCount >= l.maxUses),
    createdAt: iso(l.createdAt),
  });
  const futureExpiry = (expiresAt: string | undefined, now: number) => {
    if (expiresAt === undefined) return undefined;
    const at = toMillis(expiresAt, 'expiresAt');
    if (at <= now) throw invalid('expiresAt', 'must be in the future');
    return at;
  };
  type LinkInput = { expiresAt?: string; maxUsageCount?: number };
  const linkFields = { expiresAt: dateTime, maxUsageCount: int(1, 100_000) };
  return {
    list: route<unknown, unknown, { eventTypeId: string }>({
      data: arrayOf(privateLinkView, 0, 100),
      handle: async (call) => {
        const et = await loadOwned(owner(call), call.params.eventTypeId);
        return (await store.listPrivateLinks(et.id)).map(privateLink);
      },
    }),
    create: route<LinkInput, unknown, { eventTypeId: string }>({
      body: object(linkFields),
      data: privateLinkView,
      status: 201,
      handle: async (call) => {
        const et = await loadOwned(owner(call), call.params.eventTypeId);
        const now = clock();
        const expiresAt = futureExpiry(call.body.expiresAt, now) ?? null;
        const maxUses = call.body.maxUsageCount ?? (expiresAt === null ? 1 : null);
        // 192 random bits: unguessable; shown to the host, who shares it.
        const link: PrivateLink = { id: randomId(), eventTypeId: et.id, hash: randomId(24), expiresAt, maxUses, useCount: 0, createdAt: now };
        await store.insertPrivateLink(link);
        return privateLink(link);
      },
    }),
    update: route<LinkInput, unknown, { eventTypeId: string; linkId: string }>({
      body: patchOf(linkFields),
      data: privateLinkView,
      handle: async (call) => {
        const et = await loadOwned(owner(call), call.params.eventTypeId);
        const expiresAt = futureExpiry(call.body.expiresAt, clock());
        const saved = await store.updatePrivateLink(et.id, call.params.linkId, {
          ...(expiresAt !== undefined ? { expiresAt } : {}),
          ...(call.body.maxUsageCount !== undefined ? { maxUses: call.body.maxUsageCount } : {}),
        });
        if (saved === undefined) throw notFound('private link');
        return privateLink(saved);
      },
    }),
    delete: route<unknown, unknown, { eventTypeId: string; linkId: string }>({
      data: deleted,
      handle: async (call) => {
        const et = await loadOwned(owner(call), call.params.eventTypeId);
        if (!(await store.deletePrivateLink(et.id, call.params.linkId))) throw notFound('private link');
        return { id: call.params.linkId, deleted: true };
      },
    }),
  };
}

/** Everything in an organization: its teams' event types and its members'. */
function organizationEventTypeRoutes(deps: PlatformDeps): HandlerMap {
  const { clock } = deps.services;
  const store = deps.services.stores.api.eventTypes;
  const loadInOrganization = async (organizationId: string, id: string) => {
    const found = await store.findInOrganization(organizationId, id);
    if (found === undefined) throw notFound('event type in this organization');
    return found;
  };
  return {
    'orgEventTypes.list': route<unknown, ListQuery>({
      query: listQuery(),
      data: arrayOf(eventTypeView, 0, 100),
      handle: async ({ facts, query }) => eventTypeViews(deps, await store.listInOrganization(facts.organization!.id, query.limit, query.offset)),
    }),
    'orgTeamEventTypes.list': route<unknown, ListQuery>({
      query: listQuery(),
      data: arrayOf(eventTypeView, 0, 100),
      handle: async ({ facts, query }) => eventTypeViews(deps, await store.listOfOrganizationTeams(facts.organization!.id, query.limit, query.offset)),
    }),
    'orgEventTypes.update': route<Partial<EventTypeInput>, unknown, { eventTypeId: string }>({
      body: patchOf(teamFields),
      data: eventTypeView,
      handle: async ({ facts, params, body }) => {
        const current = await loadInOrganization(facts.organization!.id, params.eventTypeId);
        if (body.schedulingType !== undefined && current.teamId === null) throw invalid('schedulingType', 'applies to team event types only');
        return eventTypeViewOf(deps, await saveChanges(store, current.id, body, clock()));
      },
    }),
    'orgEventTypes.delete': route<unknown, unknown, { eventTypeId: string }>({
      data: deletedEventTypeView,
      handle: async ({ facts, params }) => {
        const current = await loadInOrganization(facts.organization!.id, params.eventTypeId);
        await store.delete(current.id);
        return deletedEventType(current);
      },
    }),
  };
}
