// The rules of out-of-office entries (docs/rules.md#out-of-office), shared by the routes of a
// user, a team and an organization: the end comes after the start, who covers is someone
// else the user works with, and one user's entries never overlap. Each write takes the
// user's row lock first, so two concurrent entries cannot both pass the overlap check.
import { randomUUID } from 'node:crypto';
import { conflict, invalid, notFound, toMillis } from '../input.ts';
import type { PlatformContext, PlatformStores } from '../stores.ts';
import type { OooOrder, OooReason, OutOfOfficeEntry } from './store.ts';

export { OOO_REASONS, type OooOrder, type OutOfOfficeEntry } from './store.ts';

export interface OooInput {
  start: string;
  end: string;
  notes?: string;
  /** Who covers; null (on a change) to name no one. */
  toUserId?: string | null;
  reason?: OooReason;
}

const OVERLAP = 'start: the user already has an out-of-office entry overlapping that time; change or delete that entry instead';

/**
 * docs/rules.md#out-of-office: the one covering is an accepted member of a team or an
 * organization the user is in, and not the user. The same message whether or not an account
 * of that id exists, so the answer reveals none.
 */
async function checkCover(stores: PlatformStores, userId: string, toUserId: string | null | undefined): Promise<void> {
  if (toUserId === undefined || toUserId === null) return;
  if (toUserId === userId) throw invalid('toUserId', 'must be someone other than the user who is out of office');
  if (!(await stores.api.outOfOffice.sharesMembership(userId, toUserId))) {
    throw invalid('toUserId', 'must be an accepted member of a team or organization that the user is in');
  }
}

function checkOrder(start: number, end: number, field: 'start' | 'end'): void {
  if (end <= start) throw invalid(field, field === 'end' ? 'must be later than start' : 'must be earlier than end');
}

/** Writes a new entry of `userId`, refused 409 when it overlaps one of theirs. */
export async function createEntry(ctx: PlatformContext, userId: string, input: OooInput): Promise<OutOfOfficeEntry> {
  const start = toMillis(input.start, 'start');
  const end = toMillis(input.end, 'end');
  checkOrder(start, end, 'end');
  await checkCover(ctx.stores, userId, input.toUserId);
  const now = ctx.clock();
  const entry: OutOfOfficeEntry = {
    id: await ctx.stores.ids.next('out_of_office_entries'),
    uuid: randomUUID(),
    userId,
    toUserId: input.toUserId ?? null,
    start,
    end,
    notes: input.notes ?? null,
    reason: input.reason ?? 'unspecified',
    createdAt: now,
    updatedAt: now,
  };
  await ctx.stores.transaction(async (tx) => {
    await tx.api.outOfOffice.lockUser(userId);
    if (await tx.api.outOfOffice.overlaps(userId, start, end)) throw conflict(OVERLAP);
    await tx.api.outOfOffice.insert(entry);
  });
  return entry;
}

/** Changes an entry: the new times are checked together with the ones it keeps. */
export async function changeEntry(ctx: PlatformContext, current: OutOfOfficeEntry, input: Partial<OooInput>): Promise<OutOfOfficeEntry> {
  const start = input.start !== undefined ? toMillis(input.start, 'start') : current.start;
  const end = input.end !== undefined ? toMillis(input.end, 'end') : current.end;
  checkOrder(start, end, input.end !== undefined ? 'end' : 'start');
  await checkCover(ctx.stores, current.userId, input.toUserId);
  const changes = {
    ...(input.start !== undefined ? { start } : {}),
    ...(input.end !== undefined ? { end } : {}),
    ...(input.notes !== undefined ? { notes: input.notes } : {}),
    ...(input.toUserId !== undefined ? { toUserId: input.toUserId } : {}),
    ...(input.reason !== undefined ? { reason: input.reason } : {}),
    updatedAt: ctx.clock(),
  };
  return ctx.stores.transaction(async (tx) => {
    await tx.api.outOfOffice.lockUser(current.userId);
    if (await tx.api.outOfOffice.overlaps(current.userId, start, end, current.id)) throw conflict(OVERLAP);
    await tx.api.outOfOffice.update(current.id, changes);
    // Deleted by a concurrent request since it was read: as absent as an unknown id.
    const changed = await tx.api.outOfOffice.find(current.userId, current.id);
    if (changed === undefined) throw notFound('out-of-office entry');
    return changed;
  });
}

/** An entry of the user's, or 404: another user's entry is as absent as a missing one. */
export async function findEntry(ctx: PlatformContext, userId: string, id: string): Promise<OutOfOfficeEntry> {
  const found = await ctx.stores.api.outOfOffice.find(userId, id);
  if (found === undefined) throw notFound('out-of-office entry');
  return found;
}

export function listEntries(ctx: PlatformContext, userId: string, order: OooOrder, limit: number, offset: number): Promise<OutOfOfficeEntry[]> {
  return ctx.stores.api.outOfOffice.listOfUser(userId, order, limit, offset);
}

/** Every accepted member's entries, or one member's by e-mail: an address outside the organization lists nothing. */
export function listOrganizationEntries(ctx: PlatformContext, organizationId: string, filter: { email?: string }, order: OooOrder, limit: number, offset: number): Promise<OutOfOfficeEntry[]> {
  return ctx.stores.api.outOfOffice.listOfOrganization(organizationId, filter, order, limit, offset);
}

/** Deletes an entry of the user's; answers it as it was, as the platform does. */
export async function deleteEntry(ctx: PlatformContext, userId: string, id: string): Promise<OutOfOfficeEntry> {
  const current = await findEntry(ctx, userId, id);
  await ctx.stores.transaction((tx) => tx.api.outOfOffice.delete(current.id));
  return current;
}
