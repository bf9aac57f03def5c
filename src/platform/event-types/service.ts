// The rules of event types and of their private links, and every store call they make, for
// the routes of a user, a team and an organization (and the MCP tools that call the same
// routes). An event type outside the caller's reach is as absent as a missing one; a slug is
// the owner's once; a private link good for nothing more is expired.
import { randomId, type Team, type User } from '../authorization-server.ts';
import { conflict, invalid, notFound, toMillis } from '../input.ts';
import type { PlatformContext } from '../stores.ts';
import { readBookingFields, type BookingFieldInput } from './booking-fields.ts';
import { readSlotSettings, type SlotSettingsInput } from './slot-settings.ts';
import { NO_SLOT_SETTINGS, type EventTypeChanges, type EventTypeLocation, type EventTypeOwner, type PrivateLink, type StoredEventType } from './store.ts';

export type { BookingField, EventType, EventTypeOwner, PrivateLink, StoredEventType } from './store.ts';
export type { BookingFieldInput } from './booking-fields.ts';

/** Whose event types a call reaches: a user's, a team's, or an organization's (its teams' and its members'). */
export type EventTypeScope = EventTypeOwner | { organizationId: string };

/** What a caller may set of an event type; `schedulingType` only of a team's; the slot settings as docs/integrating.md#slot-rules says. */
export interface EventTypeInput extends SlotSettingsInput {
  title: string;
  slug: string;
  description?: string;
  lengthInMinutes: number;
  locations?: LocationInput[];
  /** docs/integrating.md#booking-fields: the booking form's fields; a change replaces those set before. */
  bookingFields?: BookingFieldInput[];
  hidden?: boolean;
  requiresConfirmation?: boolean;
  minimumBookingNotice?: number;
  schedulingType?: 'collective' | 'roundRobin';
}

/**
 * A place as Gatehouse writes it (`{type, value}`) or as the platform does (`{type: 'address',
 * address}`, `link`, `phone`, `integration`, with `public`, which Gatehouse keeps nothing of).
 */
export type LocationInput = { type: EventTypeLocation['type']; value?: string; address?: string; link?: string; phone?: string; integration?: string; public?: boolean };

/** A member of the team who hosts its event types; `username` null when the account is gone. */
export interface EventTypeHost {
  userId: string;
  name: string;
  username: string | null;
}

/** An event type with the people and the team its answer shows, read once for a whole page. */
export interface EventTypeDetails {
  eventType: StoredEventType;
  /** A personal event type's owner; undefined for a team's, or when the account is gone. */
  owner?: User;
  /** A team event type's team; undefined for a personal one, or when the team is gone. */
  team?: Team;
  /** Every member of a team event type's team hosts it (a booking picks among them); none for a personal one. */
  hosts: EventTypeHost[];
}

/** What a private link's create and change take: its expiry (ISO 8601) and the bookings it allows. */
export interface PrivateLinkInput {
  expiresAt?: string;
  maxUsageCount?: number;
}

/** A private link as it stands at the service's clock. */
export interface PrivateLinkState extends PrivateLink {
  /** Past its expiry, or used as many times as it allows. */
  isExpired: boolean;
}

/** The places as Gatehouse keeps them: the platform's field of the type is the value. */
function readLocations(locations: LocationInput[]): EventTypeLocation[] {
  return locations.map((l, i) => {
    const value = l.value ?? l[l.type];
    if (value === undefined) throw invalid(`locations.${i}.${l.type}`, `a ${l.type} location needs its ${l.type} (or value)`);
    if (l.type === 'link' && !/^https?:\/\/\S+$/.test(value)) throw invalid(`locations.${i}.value`, 'a link location must be an http(s) URL');
    return { type: l.type, value };
  });
}

function changesOf(input: Partial<EventTypeInput>, now: number): EventTypeChanges {
  return {
    ...(input.title !== undefined ? { title: input.title.trim() } : {}),
    ...(input.slug !== undefined ? { slug: input.slug } : {}),
    ...(input.description !== undefined ? { description: input.description } : {}),
    ...(input.lengthInMinutes !== undefined ? { lengthMinutes: input.lengthInMinutes } : {}),
    ...(input.locations !== undefined ? { locations: readLocations(input.locations) } : {}),
    ...(input.bookingFields !== undefined ? { bookingFields: readBookingFields(input.bookingFields) } : {}),
    ...(input.hidden !== undefined ? { hidden: input.hidden } : {}),
    ...(input.requiresConfirmation !== undefined ? { requiresConfirmation: input.requiresConfirmation } : {}),
    ...(input.minimumBookingNotice !== undefined ? { minimumBookingNotice: input.minimumBookingNotice } : {}),
    ...(input.schedulingType !== undefined ? { schedulingType: input.schedulingType } : {}),
    ...readSlotSettings(input),
    updatedAt: now,
  };
}

const slugTaken = (slug: string | undefined) => conflict(`slug: an event type with slug "${slug}" already exists here`);

/**
 * The people and teams of these event types, read once for all: the page's teams and their
 * hosts in one read each, not one per team, so a list costs the same statements whatever the
 * number of teams it shows.
 */
async function withDetails(ctx: PlatformContext, eventTypes: StoredEventType[]): Promise<EventTypeDetails[]> {
  const { stores } = ctx;
  const teamIds = [...new Set(eventTypes.flatMap((e) => (e.teamId === null ? [] : [e.teamId])))];
  const teams = new Map((await stores.teams.findTeams(teamIds)).map((t) => [t.id, t]));
  const members = await stores.teams.listMembersOfTeams(teamIds, 1000);
  const userIds = new Set(eventTypes.flatMap((e) => (e.ownerId === null ? [] : [e.ownerId])));
  for (const list of members.values()) for (const m of list) userIds.add(m.userId);
  const users = new Map((await stores.users.findByIds([...userIds])).map((u) => [u.id, u]));
  return eventTypes.map((eventType) => {
    if (eventType.teamId === null) {
      const owner = users.get(eventType.ownerId!);
      return { eventType, ...(owner ? { owner } : {}), hosts: [] };
    }
    const team = teams.get(eventType.teamId);
    const hosts = (members.get(eventType.teamId) ?? []).map((m) => ({ userId: m.userId, name: m.name, username: users.get(m.userId)?.username ?? null }));
    return { eventType, ...(team ? { team } : {}), hosts };
  });
}

async function withDetailsOne(ctx: PlatformContext, eventType: StoredEventType): Promise<EventTypeDetails> {
  return (await withDetails(ctx, [eventType]))[0]!;
}

/**
 * An event type of the scope, or 404: another owner's (or another organization's) event type is
 * as absent as a missing one. Other resources that hang off an event type (its webhooks) reach
 * it through here.
 */
export async function findEventType(ctx: PlatformContext, scope: EventTypeScope, id: string): Promise<StoredEventType> {
  const { eventTypes } = ctx.stores.api;
  if ('organizationId' in scope) {
    const found = await eventTypes.findInOrganization(scope.organizationId, id);
    if (found === undefined) throw notFound('event type in this organization');
    return found;
  }
  const found = await eventTypes.findOwned(scope, id);
  if (found === undefined) throw notFound('event type');
  return found;
}

/** An event type of the scope with the people and team its answer shows. */
export async function getEventType(ctx: PlatformContext, scope: EventTypeScope, id: string): Promise<EventTypeDetails> {
  return withDetailsOne(ctx, await findEventType(ctx, scope, id));
}

/** The scope's event types, oldest first: an organization's are its teams' and its members'. */
export async function listEventTypes(ctx: PlatformContext, scope: EventTypeScope, limit: number, offset: number): Promise<EventTypeDetails[]> {
  const { eventTypes } = ctx.stores.api;
  const page = 'organizationId' in scope ? await eventTypes.listInOrganization(scope.organizationId, limit, offset) : await eventTypes.list(scope, limit, offset);
  return withDetails(ctx, page);
}

/** The event types of the organization's teams, not of its members, oldest first. */
export async function listOrganizationTeamEventTypes(ctx: PlatformContext, organizationId: string, limit: number, offset: number): Promise<EventTypeDetails[]> {
  return withDetails(ctx, await ctx.stores.api.eventTypes.listOfOrganizationTeams(organizationId, limit, offset));
}

/** A new event type of the owner over the defaults (a team's is collective unless asked); a slug the owner uses is a conflict. */
export async function createEventType(ctx: PlatformContext, owner: EventTypeOwner, input: EventTypeInput): Promise<EventTypeDetails> {
  const now = ctx.clock();
  // Checked before an id is taken: a refused request uses up no number of the series.
  const changes = changesOf(input, now);
  const id = await ctx.stores.ids.next('event_types');
  const personal = 'userId' in owner;
  const created: StoredEventType = {
    ...NO_SLOT_SETTINGS,
    id,
    ownerId: personal ? owner.userId : null,
    teamId: personal ? null : owner.teamId,
    title: '',
    slug: '',
    description: '',
    lengthMinutes: 0,
    locations: [],
    bookingFields: [],
    hidden: false,
    requiresConfirmation: false,
    minimumBookingNotice: 0,
    schedulingType: personal ? null : 'collective',
    createdAt: now,
    ...changes,
  };
  if ((await ctx.stores.api.eventTypes.insert(created)) === 'slugTaken') throw slugTaken(input.slug);
  return withDetailsOne(ctx, created);
}

/**
 * Changes an event type of the scope. How a team's event type picks its host is the team's
 * only: an organization cannot give one to a member's event type. A slug the owner already
 * uses is a conflict naming it.
 */
export async function updateEventType(ctx: PlatformContext, scope: EventTypeScope, id: string, input: Partial<EventTypeInput>): Promise<EventTypeDetails> {
  const current = await findEventType(ctx, scope, id);
  if (input.schedulingType !== undefined && current.teamId === null) throw invalid('schedulingType', 'applies to team event types only');
  const saved = await ctx.stores.api.eventTypes.update(current.id, changesOf(input, ctx.clock()));
  if (saved === 'slugTaken') throw slugTaken(input.slug);
  if (saved === undefined) throw notFound('event type');
  return withDetailsOne(ctx, saved);
}

/** Deletes an event type of the scope, its private links with it; answers what it was. */
export async function deleteEventType(ctx: PlatformContext, scope: EventTypeScope, id: string): Promise<StoredEventType> {
  const current = await findEventType(ctx, scope, id);
  await ctx.stores.api.eventTypes.delete(current.id);
  return current;
}

function stateOf(ctx: PlatformContext, link: PrivateLink): PrivateLinkState {
  const now = ctx.clock();
  return { ...link, isExpired: (link.expiresAt !== null && link.expiresAt <= now) || (link.maxUses !== null && link.useCount >= link.maxUses) };
}

function futureExpiry(expiresAt: string | undefined, now: number): number | undefined {
  if (expiresAt === undefined) return undefined;
  const at = toMillis(expiresAt, 'expiresAt');
  if (at <= now) throw invalid('expiresAt', 'must be in the future');
  return at;
}

/** The private links of an event type of the owner, oldest first. */
export async function listPrivateLinks(ctx: PlatformContext, owner: EventTypeOwner, eventTypeId: string): Promise<PrivateLinkState[]> {
  const et = await findEventType(ctx, owner, eventTypeId);
  return (await ctx.stores.api.eventTypes.listPrivateLinks(et.id)).map((l) => stateOf(ctx, l));
}

/**
 * A new private link to book a hidden event type of the owner. One made with neither an
 * expiry nor a number of uses is good for one booking, as the platform makes it.
 */
export async function createPrivateLink(ctx: PlatformContext, owner: EventTypeOwner, eventTypeId: string, input: PrivateLinkInput): Promise<PrivateLinkState> {
  const et = await findEventType(ctx, owner, eventTypeId);
  const now = ctx.clock();
  const expiresAt = futureExpiry(input.expiresAt, now) ?? null;
  const maxUses = input.maxUsageCount ?? (expiresAt === null ? 1 : null);
  // 192 random bits: unguessable; shown to the host, who shares it.
  const link: PrivateLink = { id: randomId(), eventTypeId: et.id, hash: randomId(24), expiresAt, maxUses, useCount: 0, createdAt: now };
  await ctx.stores.api.eventTypes.insertPrivateLink(link);
  return stateOf(ctx, link);
}

/** Changes a private link's expiry (which must be in the future) or the bookings it allows. */
export async function updatePrivateLink(ctx: PlatformContext, owner: EventTypeOwner, eventTypeId: string, linkId: string, input: PrivateLinkInput): Promise<PrivateLinkState> {
  const et = await findEventType(ctx, owner, eventTypeId);
  const expiresAt = futureExpiry(input.expiresAt, ctx.clock());
  const saved = await ctx.stores.api.eventTypes.updatePrivateLink(et.id, linkId, {
    ...(expiresAt !== undefined ? { expiresAt } : {}),
    ...(input.maxUsageCount !== undefined ? { maxUses: input.maxUsageCount } : {}),
  });
  if (saved === undefined) throw notFound('private link');
  return stateOf(ctx, saved);
}

/** Deletes a private link of an event type of the owner; answers its id. */
export async function deletePrivateLink(ctx: PlatformContext, owner: EventTypeOwner, eventTypeId: string, linkId: string): Promise<string> {
  const et = await findEventType(ctx, owner, eventTypeId);
  if (!(await ctx.stores.api.eventTypes.deletePrivateLink(et.id, linkId))) throw notFound('private link');
  return linkId;
}
