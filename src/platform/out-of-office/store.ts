// Out-of-office entries of users (docs/rules.md#out-of-office), as the /v2 out-of-office routes
// of a user, a team and an organization read and write them.
// src/storage/stores/platform/out-of-office.ts implements it.

export const OOO_REASONS = ['unspecified', 'vacation', 'travel', 'sick', 'public_holiday'] as const;
export type OooReason = (typeof OOO_REASONS)[number];

export interface OutOfOfficeEntry {
  id: string;
  uuid: string;
  /** The user who is away. */
  userId: string;
  /** Who covers while they are away, or null. */
  toUserId: string | null;
  /** Epoch milliseconds; end is after start, and the entry covers [start, end). */
  start: number;
  end: number;
  notes: string | null;
  reason: OooReason;
  createdAt: number;
  updatedAt: number;
}

export type OooChanges = Partial<Pick<OutOfOfficeEntry, 'start' | 'end' | 'notes' | 'toUserId' | 'reason'>> & { updatedAt: number };

export type SortOrder = 'asc' | 'desc';

/** The order of a list: by start, by end, or both (start first); oldest start first when neither is named. */
export interface OooOrder {
  sortStart?: SortOrder;
  sortEnd?: SortOrder;
}

export interface OutOfOfficeStore {
  /** Inserts it; a duplicate id or uuid throws. */
  insert(entry: OutOfOfficeEntry): Promise<void>;
  /** The user's entry of that id; undefined when there is none or it is another user's. */
  find(userId: string, id: string): Promise<OutOfOfficeEntry | undefined>;
  /** The user's entries in that order (ties by id). */
  listOfUser(userId: string, order: OooOrder, limit: number, offset: number): Promise<OutOfOfficeEntry[]>;
  /**
   * The entries of the organization's accepted members in that order (ties by id); with
   * `email`, only the member of that address (any case). A pending invitee's entries are not
   * the organization's (docs/rules.md#membership-invitations).
   */
  listOfOrganization(organizationId: string, filter: { email?: string }, order: OooOrder, limit: number, offset: number): Promise<OutOfOfficeEntry[]>;
  /** Changes it; an unknown id changes nothing. */
  update(id: string, changes: OooChanges): Promise<void>;
  /** Removes it; an unknown id removes nothing. */
  delete(id: string): Promise<void>;
  /**
   * Takes the user's row lock for the rest of the caller's transaction (a no-op write), so
   * that two entries of one user cannot both pass the overlap check before either is
   * written. Meaningful only inside a transaction.
   */
  lockUser(userId: string): Promise<void>;
  /** Does the user have an entry overlapping [start, end), other than exceptId? */
  overlaps(userId: string, start: number, end: number, exceptId?: string): Promise<boolean>;
  /**
   * Whether `otherUserId` is an accepted member of a team or an organization that `userId` is
   * an accepted member of (pending invitations count for neither).
   */
  sharesMembership(userId: string, otherUserId: string): Promise<boolean>;
}
