// The profile of a user as /v2/me and an organization's users routes show it, read once per
// call on the hot path. It is changed through the accounts' UserStore.updateProfile, which owns
// the record; accounts themselves (sign-up, passwords) belong to services/accounts.

export interface Profile {
  id: string;
  email: string;
  name: string;
  username: string;
  timeZone: string;
  weekStart: string;
  timeFormat: number;
  defaultScheduleId: string | null;
  organizationId: string | null;
  /** docs/rules.md#profile: what the user tells of themselves; null (metadata `{}`) when never given. */
  bio: string | null;
  avatarUrl: string | null;
  locale: string | null;
  metadata: Record<string, string | number | boolean>;
  /** docs/rules.md#profile: a sign-in address change waiting for the user, expired or not; absent when none. */
  pendingEmail?: { email: string; expiresAt: number };
}

export interface ProfileStore {
  /** The user's profile; undefined when there is no such user. */
  find(userId: string): Promise<Profile | undefined>;
}
