// GET/PATCH /v2/me: the authorized user's profile (docs/rules.md#profile).
import type { PlatformDeps } from '../deps.ts';
import { route, type HandlerMap } from '../handler.ts';
import { int, nullable, numberedId, object, patchOf, str, timeZone, type JsonSchema } from '../schemas.ts';
import { ownProfile, updateOwnProfile, type Profile, type ProfileInput } from './service.ts';

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
  avatarUrl: { ...nullable(text), description: 'Always null: Gatehouse keeps no avatar' },
  bio: { ...nullable(text), description: 'Always null: Gatehouse keeps no biography of a user' },
} satisfies Record<string, JsonSchema>;

export const profileView: JsonSchema = object(
  {
    ...profileFieldsView,
    organization: {
      ...object({ id: numberedId, isPlatform: { type: 'boolean', description: 'Always false: Gatehouse has no platform (managed-user) organizations' } }, ['id', 'isPlatform']),
      description: 'The organization the user belongs to; absent when none',
    },
    pendingEmail: {
      ...text,
      description: 'A sign-in address an application asked for (PATCH with email), waiting for the user to confirm it in the web app; absent when none (docs/rules.md#profile)',
    },
  },
  Object.keys(profileFieldsView),
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
    avatarUrl: null,
    bio: null,
    ...(u.organizationId !== null ? { organization: { id: u.organizationId, isPlatform: false } } : {}),
  };
}

/** The user's own profile: the profile and the address change waiting for them, which the service shows only while it has not lapsed. */
const ownProfileView = (u: Profile) => ({ ...profile(u), ...(u.pendingEmail === undefined ? {} : { pendingEmail: u.pendingEmail.email }) });

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

export function meHandlers(deps: PlatformDeps): HandlerMap {
  const ctx = deps.services;
  return {
    'me.get': route({ data: profileView, handle: async ({ userId }) => ownProfileView(await ownProfile(ctx, userId)) }),
    // docs/rules.md#profile: `email` is asked for, not made: the user confirms it in the web app.
    'me.update': route<ProfilePatch & { email?: string }>({
      body: patchOf({ ...profileFields, email: { type: 'string', minLength: 3, maxLength: 254, description: 'A new sign-in address: it waits for the user to confirm it in the web app (pendingEmail)' } }),
      data: profileView,
      handle: async ({ userId, body, principal }) => ownProfileView(await updateOwnProfile(ctx, userId, body, principal?.clientId ?? null)),
    }),
  };
}
