// Event types of a user (EVENT_TYPE_*), of a team (TEAM_EVENT_TYPE_*) and across an
// organization (ORG_EVENT_TYPE_*), and the private links that let people book hidden ones.
import type { PlatformDeps } from '../deps.ts';
import { route, type HandlerMap } from '../handler.ts';
import { iso, isoOrNull } from '../input.ts';
import {
  createEventType,
  createPrivateLink,
  deleteEventType,
  deletePrivateLink,
  getEventType,
  listEventTypes,
  listOrganizationTeamEventTypes,
  listPrivateLinks,
  updateEventType,
  updatePrivateLink,
  type EventTypeDetails,
  type EventTypeInput,
  type EventTypeOwner,
  type PrivateLinkInput,
  type PrivateLinkState,
} from './service.ts';
import { deletedEventType, deletedEventTypeView, eventTypeAnswer, eventTypeView } from './view.ts';
import { CUSTOM_FIELD_TYPES } from './booking-fields.ts';
import { slotSettingsFields } from './slot-settings.ts';
import { arrayOf, bool, dateTime, deleted, int, listQuery, nullable, numberedId, object, patchOf, str, type JsonSchema, type ListQuery } from '../schemas.ts';

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

/**
 * docs/integrating.md#booking-fields: a booking field as Cal.com API v2 writes one (its input
 * variants, default and custom): one schema with every property, so that a refusal names the
 * property to fix rather than "must match a schema in oneOf" (as bookings/requests.ts does for
 * guests); what each kind needs is the service's rule.
 */
const bookingFieldSchema = object(
  {
    type: { type: 'string', enum: ['name', 'email', 'radioInput', ...CUSTOM_FIELD_TYPES], description: 'A custom field\'s kind; name or email for those default fields' },
    slug: str(1, 64, { pattern: '^[A-Za-z][A-Za-z0-9_-]*$', description: 'The key of its answer in bookingFieldsResponses; location, title, notes, guests and rescheduleReason name those default fields' }),
    label: str(1, 500),
    required: bool,
    placeholder: str(0, 500),
    options: arrayOf(str(1, 500), 1, 100),
    hidden: bool,
    disableOnPrefill: bool,
    isDefault: { ...bool, description: 'As the answers give it; the type or slug decides' },
  },
  [],
);

const fields = {
  title: str(1, 200),
  slug: str(1, 100, { pattern: '^[a-z0-9]+(-[a-z0-9]+)*$' }),
  description: str(0, 5000),
  lengthInMinutes: int(1, 1440),
  locations: arrayOf(locationSchema, 0, 10),
  bookingFields: { ...arrayOf(bookingFieldSchema, 0, 50), description: 'The booking form: the default fields\' settings and the custom fields; a change replaces them all (docs/integrating.md#booking-fields)' },
  hidden: bool,
  requiresConfirmation: bool,
  minimumBookingNotice: int(0, 525_600, { description: 'minutes' }),
  ...slotSettingsFields,
};
const teamFields = { ...fields, schedulingType: { type: 'string', enum: ['collective', 'roundRobin'] } };

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

/** The answer for a private link; `appUrl` (APP_URL) addresses its booking page. */
const privateLink = (appUrl: string, l: PrivateLinkState) => ({
  id: l.id,
  linkId: l.id,
  eventTypeId: l.eventTypeId,
  hash: l.hash,
  bookingUrl: `${appUrl}/d/${l.hash}`,
  expiresAt: isoOrNull(l.expiresAt),
  maxUsageCount: l.maxUses,
  usageCount: l.useCount,
  isExpired: l.isExpired,
  createdAt: iso(l.createdAt),
});

/** Who owns the event types of a route: the token's user, or the path's team. */
const ownedBy = (kind: 'user' | 'team') => (call: { userId: string; facts: { team?: { id: string } | null } }): EventTypeOwner =>
  kind === 'user' ? { userId: call.userId } : { teamId: call.facts.team!.id };

export function eventTypeHandlers(deps: PlatformDeps): HandlerMap {
  const mine = ownedEventTypeRoutes(deps, 'user');
  const team = ownedEventTypeRoutes(deps, 'team');
  const myLinks = privateLinkRoutes(deps, 'user');
  const teamLinks = privateLinkRoutes(deps, 'team');
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

type EventTypeParams = { eventTypeId: string };

/** List, create, read, change and delete: the same five routes for a user's and a team's. */
function ownedEventTypeRoutes(deps: PlatformDeps, kind: 'user' | 'team') {
  const ctx = deps.services;
  const answer = (d: EventTypeDetails) => eventTypeAnswer(deps.config.appUrl, d);
  const owner = ownedBy(kind);
  return {
    list: route<unknown, ListQuery>({
      query: listQuery(),
      data: arrayOf(eventTypeView, 0, 100),
      handle: async (call) => (await listEventTypes(ctx, owner(call), call.query.limit, call.query.offset)).map(answer),
    }),
    create: route<EventTypeInput>({
      body: object(kind === 'user' ? fields : teamFields, ['title', 'slug', 'lengthInMinutes']),
      data: eventTypeView,
      status: 201,
      handle: async (call) => answer(await createEventType(ctx, owner(call), call.body)),
    }),
    get: route<unknown, unknown, EventTypeParams>({
      data: eventTypeView,
      handle: async (call) => answer(await getEventType(ctx, owner(call), call.params.eventTypeId)),
    }),
    update: route<Partial<EventTypeInput>, unknown, EventTypeParams>({
      body: patchOf(kind === 'user' ? fields : teamFields),
      data: eventTypeView,
      handle: async (call) => answer(await updateEventType(ctx, owner(call), call.params.eventTypeId, call.body)),
    }),
    delete: route<unknown, unknown, EventTypeParams>({
      data: deletedEventTypeView,
      handle: async (call) => deletedEventType(await deleteEventType(ctx, owner(call), call.params.eventTypeId)),
    }),
  };
}

type LinkParams = { eventTypeId: string; linkId: string };

/**
 * The private links of an event type of the token's user or of the path's team: list, create,
 * change (expiry, uses allowed) and delete.
 */
function privateLinkRoutes(deps: PlatformDeps, kind: 'user' | 'team') {
  const ctx = deps.services;
  const answer = (l: PrivateLinkState) => privateLink(deps.config.appUrl, l);
  const owner = ownedBy(kind);
  const linkFields = { expiresAt: dateTime, maxUsageCount: int(1, 100_000) };
  return {
    list: route<unknown, unknown, EventTypeParams>({
      data: arrayOf(privateLinkView, 0, 100),
      handle: async (call) => (await listPrivateLinks(ctx, owner(call), call.params.eventTypeId)).map(answer),
    }),
    create: route<PrivateLinkInput, unknown, EventTypeParams>({
      body: object(linkFields),
      data: privateLinkView,
      status: 201,
      handle: async (call) => answer(await createPrivateLink(ctx, owner(call), call.params.eventTypeId, call.body)),
    }),
    // Cal.com API v2 documents no body for the organization's team route and an all-optional
    // one for the personal route: no body, or an empty one, changes nothing and answers the link.
    update: route<PrivateLinkInput, unknown, LinkParams>({
      body: object(linkFields),
      data: privateLinkView,
      handle: async (call) => answer(await updatePrivateLink(ctx, owner(call), call.params.eventTypeId, call.params.linkId, call.body)),
    }),
    delete: route<unknown, unknown, LinkParams>({
      data: deleted,
      handle: async (call) => ({ id: await deletePrivateLink(ctx, owner(call), call.params.eventTypeId, call.params.linkId), deleted: true }),
    }),
  };
}

/** Everything in an organization: its teams' event types and its members'. */
function organizationEventTypeRoutes(deps: PlatformDeps): HandlerMap {
  const ctx = deps.services;
  const answer = (d: EventTypeDetails) => eventTypeAnswer(deps.config.appUrl, d);
  const inOrganization = (facts: { organization?: { id: string } | null }) => ({ organizationId: facts.organization!.id });
  return {
    'orgEventTypes.list': route<unknown, ListQuery>({
      query: listQuery(),
      data: arrayOf(eventTypeView, 0, 100),
      handle: async ({ facts, query }) => (await listEventTypes(ctx, inOrganization(facts), query.limit, query.offset)).map(answer),
    }),
    'orgTeamEventTypes.list': route<unknown, ListQuery>({
      query: listQuery(),
      data: arrayOf(eventTypeView, 0, 100),
      handle: async ({ facts, query }) => (await listOrganizationTeamEventTypes(ctx, facts.organization!.id, query.limit, query.offset)).map(answer),
    }),
    'orgEventTypes.update': route<Partial<EventTypeInput>, unknown, EventTypeParams>({
      body: patchOf(teamFields),
      data: eventTypeView,
      handle: async ({ facts, params, body }) => answer(await updateEventType(ctx, inOrganization(facts), params.eventTypeId, body)),
    }),
    'orgEventTypes.delete': route<unknown, unknown, EventTypeParams>({
      data: deletedEventTypeView,
      handle: async ({ facts, params }) => deletedEventType(await deleteEventType(ctx, inOrganization(facts), params.eventTypeId)),
    }),
  };
}
