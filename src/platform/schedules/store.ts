// Schedules (availability) of a user or a team, and which one is a user's default (the /v2
// schedules routes).

export interface AvailabilityRange {
  days: string[];
  startTime: string;
  endTime: string;
}

/** A date's own hours; 00:00-00:00 marks the date unavailable (docs/integrating.md#schedules). */
export interface AvailabilityOverride {
  date: string;
  startTime: string;
  endTime: string;
}

/** Whose schedules: a user's, a team's, or an organization's (its teams' and its members'). */
export type ScheduleScope = { userId: string } | { teamId: string } | { organizationId: string };

export interface Schedule {
  id: string;
  /** The user of a personal schedule; null for a team's. */
  ownerId: string | null;
  teamId: string | null;
  /**
   * Of a team's schedule, the team's first owner (the earliest owner membership), who answers
   * for it where the platform names a schedule's user (docs/integrating.md#platform-answers);
   * null for a personal schedule, or a team with no owner.
   */
  teamOwnerId: string | null;
  name: string;
  timeZone: string;
  availability: AvailabilityRange[];
  overrides: AvailabilityOverride[];
  /** Whether it is its user's default schedule (always false for a team's). */
  isDefault: boolean;
  createdAt: number;
  updatedAt: number;
}

export type ScheduleChanges = Partial<Pick<Schedule, 'name' | 'timeZone' | 'availability' | 'overrides'>> & { updatedAt: number };

export interface ScheduleStore {
  /** Inserts it (isDefault is read, not written: see setDefault); a duplicate id throws. */
  insert(schedule: Omit<Schedule, 'isDefault' | 'teamOwnerId'>): Promise<void>;
  /** The schedule only if it is in the scope; undefined otherwise. */
  find(scope: ScheduleScope, id: string): Promise<Schedule | undefined>;
  /** The scope's schedules, oldest first. */
  list(scope: ScheduleScope, limit: number, offset: number): Promise<Schedule[]>;
  /** Changes it; an unknown id changes nothing. */
  update(id: string, changes: ScheduleChanges): Promise<void>;
  /**
   * Removes it, and unsets it wherever it was a user's default. Two writes: call it inside
   * the caller's transaction (`stores.transaction`).
   */
  delete(id: string): Promise<void>;
  /** Makes it the user's default; with onlyIfUnset, only when the user has none. */
  setDefault(userId: string, scheduleId: string, onlyIfUnset: boolean): Promise<void>;
  /** The user has no default schedule any more. */
  clearDefault(userId: string): Promise<void>;
}
