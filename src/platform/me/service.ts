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

/** docs/rules.md#profile: the languages Cal.com API v2 takes for a user (its UpdateManagedUserInput's list). */
export const LOCALES = [
  'ar', 'az', 'bg', 'bn', 'ca', 'cs', 'da', 'de', 'el', 'en', 'es', 'es-419', 'et', 'eu', 'fi', 'fr', 'he', 'hr', 'hu', 'id', 'it', 'iw',
  'ja', 'km', 'ko', 'lv', 'nl', 'no', 'pl', 'pt', 'pt-BR', 'ro', 'ru', 'sk', 'sr', 'sv', 'ta', 'th', 'tr', 'uk', 'vi', 'zh-CN', 'zh-TW',
] as const;

/**
 * docs/rules.md#profile: the bounds of what a user tells of themselves. Metadata's are Cal.com's
 * documented ones (at most 50 keys, each up to 40 characters, values up to 500 characters);
 * a value is a string, a number or a boolean, so the object stays flat and small.
 */
export const PROFILE_LIMITS = { bio: 1000, avatarUrl: 2048, metadataKeys: 50, metadataKey: 40, metadataValue: 500 } as const;

export type MetadataValue = string | number | boolean;

/** The fields of a profile a token may change. */
export interface ProfileInput {
  name?: string;
  timeZone?: string;
  weekStart?: string;
  timeFormat?: number;
  bio?: string;
  avatarUrl?: string | null;
  locale?: string;
  metadata?: Record<string, unknown>;
}

/** What only the user may change of their own profile: the address (asked for) and which schedule is their default. */
export interface OwnProfileInput extends ProfileInput {
  email?: string;
  defaultScheduleId?: string;
}

/** Any control character but a line break or a tab: a biography may have paragraphs. */
const CONTROL_BUT_LINES = /(?![\t\n\r])\p{Cc}/u;

/** A biography; blank is none (null). */
function checkBio(bio: string): string | null {
  if (bio.length > PROFILE_LIMITS.bio) throw invalid('bio', `must be at most ${PROFILE_LIMITS.bio} characters`);
  if (CONTROL_BUT_LINES.test(bio)) throw invalid('bio', 'must be text: line breaks are kept, other control characters are refused');
  return bio.trim() === '' ? null : bio;
}

/**
 * The address of an avatar, kept and shown, never fetched: an https URL (RFC 9110 §4.2.2), one
 * address with no spaces, control characters or credentials in it. Null clears it.
 */
function checkAvatarUrl(value: string | null): string | null {
  if (value === null) return null;
  const example = 'such as https://example.com/avatar.png';
  if (value.length > PROFILE_LIMITS.avatarUrl) throw invalid('avatarUrl', `must be at most ${PROFILE_LIMITS.avatarUrl} characters`);
  if (/[\s\p{Cc}]/u.test(value)) throw invalid('avatarUrl', `must be one URL without spaces or control characters, ${example}`);
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw invalid('avatarUrl', `must be an https URL, ${example}`);
  }
  if (url.protocol !== 'https:') throw invalid('avatarUrl', `must be an https URL, ${example} (not ${url.protocol.slice(0, -1)})`);
  if (url.username !== '' || url.password !== '') throw invalid('avatarUrl', 'must not hold a user name or password');
  return value;
}

function checkLocale(locale: string): string {
  if (!(LOCALES as readonly string[]).includes(locale)) throw invalid('locale', `must be one of the platform's locales: ${LOCALES.join(', ')}`);
  return locale;
}

/** A flat object within PROFILE_LIMITS; its keys are one line each. Replaces the metadata as a whole. */
function checkMetadata(metadata: Record<string, unknown>): Record<string, MetadataValue> {
  if (typeof metadata !== 'object' || metadata === null || Array.isArray(metadata)) throw invalid('metadata', 'must be an object of keys and values');
  const entries = Object.entries(metadata);
  if (entries.length > PROFILE_LIMITS.metadataKeys) throw invalid('metadata', `must have at most ${PROFILE_LIMITS.metadataKeys} keys (it has ${entries.length})`);
  for (const [key, value] of entries) {
    if (key.length === 0 || key.length > PROFILE_LIMITS.metadataKey) throw invalid('metadata', `each key must be 1 to ${PROFILE_LIMITS.metadataKey} characters ("${key.slice(0, PROFILE_LIMITS.metadataKey)}…" is ${key.length})`);
    // The key is not echoed: it is what holds the control character.
    if (hasControlCharacters(key)) throw invalid('metadata', `each key ${ONE_LINE}`);
    const field = `metadata.${key}`;
    if (typeof value === 'string') {
      if (value.length > PROFILE_LIMITS.metadataValue) throw invalid(field, `must be at most ${PROFILE_LIMITS.metadataValue} characters`);
    } else if (typeof value === 'number') {
      if (!Number.isFinite(value)) throw invalid(field, 'must be a finite number');
    } else if (typeof value !== 'boolean') {
      throw invalid(field, 'must be a string, a number or a boolean: metadata is flat');
    }
  }
  return Object.fromEntries(entries) as Record<string, MetadataValue>;
}

/**
 * The changes of a profile update: the name trimmed, and refused when blank or not one line; the
 * time zone an IANA one; a biography, an avatar's address, a locale and metadata within their
 * rules (docs/rules.md#profile).
 */
export function profileChanges(input: ProfileInput): ProfileChanges {
  checkTimeZone(input.timeZone);
  if (input.name !== undefined && input.name.trim() === '') throw invalid('name', 'must not be blank');
  if (input.name !== undefined && hasControlCharacters(input.name)) throw invalid('name', ONE_LINE);
  return {
    ...(input.name !== undefined ? { name: input.name.trim() } : {}),
    ...(input.timeZone !== undefined ? { timeZone: input.timeZone } : {}),
    ...(input.weekStart !== undefined ? { weekStart: input.weekStart } : {}),
    ...(input.timeFormat !== undefined ? { timeFormat: input.timeFormat } : {}),
    ...(input.bio !== undefined ? { bio: checkBio(input.bio) } : {}),
    ...(input.avatarUrl !== undefined ? { avatarUrl: checkAvatarUrl(input.avatarUrl) } : {}),
    ...(input.locale !== undefined ? { locale: checkLocale(input.locale) } : {}),
    ...(input.metadata !== undefined ? { metadata: checkMetadata(input.metadata) } : {}),
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
 * to confirm in the web app (requestEmailChange), on behalf of `clientId`; `defaultScheduleId`
 * makes one of the user's own schedules their default (another's, or none, is refused as the
 * field's mistake). Every field is checked before anything is written. Answers the profile as it
 * now is.
 */
export async function updateOwnProfile(ctx: PlatformContext, userId: string, input: OwnProfileInput, clientId: string | null): Promise<Profile> {
  const changes = profileChanges(input);
  // One change, one transaction: the address's request, the default and the other fields land together or not at all.
  await ctx.stores.transaction(async (tx) => {
    const scheduleId = input.defaultScheduleId;
    if (scheduleId !== undefined && (await tx.api.schedules.find({ userId }, scheduleId)) === undefined) {
      throw invalid('defaultScheduleId', `${scheduleId} is not one of your schedules (GET /v2/schedules lists them)`);
    }
    if (input.email !== undefined) await requestEmailChange({ ...ctx, stores: tx }, userId, input.email, clientId);
    if (Object.keys(changes).length > 0) await tx.users.updateProfile(userId, changes, ctx.clock());
    if (scheduleId !== undefined) await tx.api.schedules.setDefault(userId, scheduleId, false);
  });
  return ownProfile(ctx, userId);
}
