// The authorized user's own profile (docs/rules.md#profile): what GET and PATCH /v2/me read and
// change, and the rules of a change that JSON schema cannot express, which an organization
// admin's change of their users' profiles shares. A new sign-in address is only asked for: the
// user confirms it in the web app, and until then the profile shows it as pending, unless the
// request has lapsed.
import { hasControlCharacters, ONE_LINE, type ProfileChanges, Refusal, requestEmailChange } from '../authorization-server.ts';
import { checkTimeZone, invalid } from '../input.ts';
import type { PlatformContext } from '../stores.ts';
import type { Profile } from './store.ts';

export type { Profile } from './store.ts';

/** The fields of a profile a token may change. */
export interface ProfileInput {
  name?: string;
  timeZone?: string;
  weekStart?: string;
  timeFormat?: number;
}

/** The changes of a profile update: the name trimmed, and refused when blank or not one line; the time zone an IANA one. */
export function profileChanges(input: ProfileInput): ProfileChanges {
  checkTimeZone(input.timeZone);
  if (input.name !== undefined && input.name.trim() === '') throw invalid('name', 'must not be blank');
  if (input.name !== undefined && hasControlCharacters(input.name)) throw invalid('name', ONE_LINE);
  return {
    ...(input.name !== undefined ? { name: input.name.trim() } : {}),
    ...(input.timeZone !== undefined ? { timeZone: input.timeZone } : {}),
    ...(input.weekStart !== undefined ? { weekStart: input.weekStart } : {}),
    ...(input.timeFormat !== undefined ? { timeFormat: input.timeFormat } : {}),
  };
}

/**
 * The user's own profile, with the address change waiting for them (`pendingEmail`) only while
 * it has not lapsed; refused when the token's user no longer exists.
 */
export async function ownProfile(ctx: PlatformContext, userId: string): Promise<Profile> {
  const found = await ctx.stores.api.profiles.find(userId);
  if (found === undefined) throw new Refusal('not_found', 'the user of this token no longer exists');
  const { pendingEmail, ...profile } = found;
  return pendingEmail === undefined || pendingEmail.expiresAt <= ctx.clock() ? profile : { ...profile, pendingEmail };
}

/**
 * Changes the user's own profile; `email` asks for a new sign-in address, recorded for the user
 * to confirm in the web app (requestEmailChange), on behalf of `clientId`. Every field is checked
 * before anything is written. Answers the profile as it now is.
 */
export async function updateOwnProfile(ctx: PlatformContext, userId: string, input: ProfileInput & { email?: string }, clientId: string | null): Promise<Profile> {
  const changes = profileChanges(input);
  // One change, one transaction: the address's request and the other fields land together or not at all.
  await ctx.stores.transaction(async (tx) => {
    if (input.email !== undefined) await requestEmailChange({ ...ctx, stores: tx }, userId, input.email, clientId);
    if (Object.keys(changes).length > 0) await tx.users.updateProfile(userId, changes, ctx.clock());
  });
  return ownProfile(ctx, userId);
}
