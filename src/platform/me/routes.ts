// GET/PATCH /v2/me: the authorized user's profile (docs/rules.md#profile).
import type { PlatformDeps } from '../deps.ts';
import { route, type HandlerMap } from '../handler.ts';
import { int, nullable, numberedId, numberedIdInput, object, patchOf, str, timeZone, type JsonSchema } from '../schemas.ts';
import { LOCALES, ownProfile, PROFILE_LIMITS, updateOwnProfile, type OwnProfileInput, type Profile, type ProfileInput } from './service.ts';

// An organization's users routes change a profile under the same rules.
export { profileChanges } from './service.ts';

export const WEEK_DAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];

/** The fields of a user that every view of one shows (the profile, an organization's users). */
export const userFields = {
  id: numberedId,
  email: { type: 'string' },
  name: { type: 'string' },
  username: { type: 'string' },
  timeZone: { type: 'string' },
  weekStart: { type: 'string' },
  timeFormat: { type: 'integer' },
} satisfies Record<string, JsonSchema>;

const text = { type: 'string' };

/** What Gatehouse keeps of a user's profile as it appears everywhere a user is shown in full. */
export const profileFieldsView = {
  ...userFields,
  defaultScheduleId: nullable(numberedId),
  organizationId: nullable(numberedId),
  avatarUrl: { ...nullable(text), description: "The address of the user's avatar (PATCH /v2/me); null when none" },
  bio: { ...nullable(text), description: 'What the user tells of themselves (PATCH /v2/me); null when none' },
} satisfies Record<string, JsonSchema>;

/** A metadata value: the type list keeps Ajv from coercing one (null to "" among them), so the service refuses what is not a string, number or boolean. */
const metadataValue = { type: ['string', 'number', 'boolean', 'null', 'object', 'array'] };
const metadataView: JsonSchema = { type: 'object', additionalProperties: { type: ['string', 'number', 'boolean'] }, description: 'What applications keep for the user (PATCH /v2/me); {} when nothing' };

export const profileView: JsonSchema = object(
  {
    ...profileFieldsView,
    organization: {
      ...object({ id: numberedId, isPlatform: { type: 'boolean', description: 'Always false: Gatehouse has no platform (managed-user) organizations' } }, ['id', 'isPlatform']),
      description: 'The organization the user belongs to; absent when none',
    },
    locale: { ...nullable(text), description: "The user's language, one of the platform's locales (PATCH /v2/me); null when none was given" },
    metadata: metadataView,
    pendingEmail: {
      ...text,
      description: 'A sign-in address an application asked for (PATCH with email), waiting for the user to confirm it in the web app; absent when none (docs/rules.md#profile)',
    },
  },
  [...Object.keys(profileFieldsView), 'locale', 'metadata'],
);

/** The profile view: the record as it is, with the fields in the documented order. */
export function profile(u: Profile) {
  return {
    id: u.id,
    email: u.email,
    name: u.name,
    username: u.username,
    timeZone: u.timeZone,
    weekStart: u.weekStart,
    timeFormat: u.timeFormat,
    defaultScheduleId: u.defaultScheduleId,
    organizationId: u.organizationId,
    avatarUrl: u.avatarUrl,
    bio: u.bio,
    ...(u.organizationId !== null ? { organization: { id: u.organizationId, isPlatform: false } } : {}),
  };
}

/** The user's own profile: the profile and the address change waiting for them, which the service shows only while it has not lapsed. */
const ownProfileView = (u: Profile) => ({ ...profile(u), locale: u.locale, metadata: u.metadata, ...(u.pendingEmail === undefined ? {} : { pendingEmail: u.pendingEmail.email }) });

/** The fields of a profile a token may change. */
export const profileFields = {
  name: str(1, 100),
  timeZone,
  weekStart: { type: 'string', enum: WEEK_DAYS },
  timeFormat: int(12, 24, { enum: [12, 24] }),
};

export const profilePatch = patchOf(profileFields);

/** The body of a profile PATCH (also sent by organization admins for their users). */
export type ProfilePatch = ProfileInput;

/** What only the user changes of their own profile, beside profileFields (docs/rules.md#profile). */
const ownProfileFields = {
  email: { type: 'string', minLength: 3, maxLength: 254, description: 'A new sign-in address: it waits for the user to confirm it in the web app (pendingEmail)' },
  defaultScheduleId: { ...numberedIdInput, description: 'One of your own schedules (GET /v2/schedules), which becomes your default' },
  bio: { type: 'string', maxLength: PROFILE_LIMITS.bio, description: `What you tell of yourself, up to ${PROFILE_LIMITS.bio} characters; line breaks are kept; blank clears it` },
  avatarUrl: { type: ['string', 'null'], maxLength: PROFILE_LIMITS.avatarUrl, description: 'The https address of your avatar, kept and shown, never fetched; null clears it' },
  locale: { type: 'string', enum: [...LOCALES], description: "Your language, one of the platform's locales" },
  metadata: {
    type: 'object',
    maxProperties: PROFILE_LIMITS.metadataKeys,
    additionalProperties: metadataValue,
    description: `Replaces what applications keep for you: at most ${PROFILE_LIMITS.metadataKeys} keys of 1 to ${PROFILE_LIMITS.metadataKey} characters, each value a string of up to ${PROFILE_LIMITS.metadataValue} characters, a number or a boolean`,
  },
} satisfies Record<string, JsonSchema>;

export function meHandlers(deps: PlatformDeps): HandlerMap {
  const ctx = deps.services;
  return {
    'me.get': route({ data: profileView, handle: async ({ userId }) => ownProfileView(await ownProfile(ctx, userId)) }),
    // docs/rules.md#profile: `email` is asked for, not made: the user confirms it in the web app.
    'me.update': route<OwnProfileInput>({
      body: patchOf({ ...profileFields, ...ownProfileFields }),
      data: profileView,
      handle: async ({ userId, body, principal }) => ownProfileView(await updateOwnProfile(ctx, userId, body, principal?.clientId ?? null)),
    }),
  };
}
