// The profile of a user as /v2/me and an organization's users routes show and change it
// (SPEC §6). Accounts themselves (sign-up, passwords) belong to services/accounts.

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
}

export type ProfileChanges = Partial<Pick<Profile, 'name' | 'timeZone' | 'weekStart' | 'timeFormat'>> & { updatedAt: number };

export interface ProfileStore {
  /** The user's profile; undefined when there is no such user. */
  find(userId: string): Promise<Profile | undefined>;
  /** Changes the user's profile; an unknown id changes nothing. */
  update(userId: string, changes: ProfileChanges): Promise<void>;
}
