// The stores of accounts: users and their browser sessions (docs/rules.md#surfaces, docs/rules.md#data, docs/rules.md#scale-out). Implemented
// in src/storage/stores/accounts.ts; every method runs in the transaction its store was
// built over (ServiceStores.transaction), or on its own when there is none.

/** A user account. The email is kept in lower case. */
export interface User {
  id: string;
  email: string;
  name: string;
  username: string;
  /** argon2id (docs/rules.md#data). */
  passwordHash: string;
  /** A platform admin: reviews clients (docs/rules.md#request-parameters). */
  isAdmin: boolean;
  timeZone: string;
  weekStart: string;
  timeFormat: number;
  defaultScheduleId: string | null;
  /** The first organization the user joined, which GET /v2/me reports (docs/rules.md#profile). */
  organizationId: string | null;
  createdAt: number;
  updatedAt: number;
  /**
   * The organization whose admin made the account through the API
   * (docs/rules.md#organization-made-accounts); null or left out for any other account.
   */
  createdByOrganizationId?: string | null;
}

/** The profile fields a user (or an admin of their organization) may change. */
export interface ProfileChanges {
  name?: string;
  timeZone?: string;
  weekStart?: string;
  timeFormat?: number;
  /** docs/rules.md#profile: what the user tells of themselves; null clears it. */
  bio?: string | null;
  avatarUrl?: string | null;
  locale?: string;
  /** Replaces the whole object. */
  metadata?: Record<string, string | number | boolean>;
}

export interface UserStore {
  /** Inserts the user. Returns false, writing nothing, when the email or username is taken. */
  insert(user: User): Promise<boolean>;
  /** The user with this (lower-case) email; undefined when there is none. */
  findByEmail(email: string): Promise<User | undefined>;
  /** The user with this id; undefined when there is none. */
  findById(id: string): Promise<User | undefined>;
  /** The users with these ids, in no particular order; ids with no user are left out. */
  findByIds(ids: readonly string[]): Promise<User[]>;
  /** Every user (admins only, with `admins`), by email. */
  list(filter: { admins?: boolean }): Promise<User[]>;
  /** Replaces the password hash; false when there is no such user. */
  setPasswordHash(id: string, passwordHash: string, at: number): Promise<boolean>;
  /** Makes the user a platform admin or not; false when there is no such user. */
  setAdmin(id: string, admin: boolean, at: number): Promise<boolean>;
  /** Applies the changes and returns the user as it is now; undefined when there is none. */
  updateProfile(id: string, changes: ProfileChanges, at: number): Promise<User | undefined>;
  /**
   * docs/rules.md#profile: changes the sign-in address; false, writing nothing, when another
   * account has it or there is no such user.
   */
  setEmail(id: string, email: string, at: number): Promise<boolean>;
  /** Stores the request, replacing the user's earlier one. */
  putEmailChange(request: EmailChangeRequest): Promise<void>;
  /** The user's request with the asking application's name, expired or not; undefined when none. */
  findEmailChange(userId: string): Promise<(EmailChangeRequest & { clientName: string | null }) | undefined>;
  /** Removes the user's request; false when there was none. */
  deleteEmailChange(userId: string): Promise<boolean>;
  /** Records the organization as the user's, unless the user already has one; a missing user is no-op. */
  setOrganizationIfNone(userId: string, organizationId: string, at: number): Promise<void>;
  /** Clears the user's organization if it is this one; otherwise changes nothing. */
  clearOrganization(userId: string, organizationId: string, at: number): Promise<void>;
  /**
   * Deletes the account and what is only theirs (sessions, memberships, schedules, event
   * types...; bookings they host stay, without a host), unless they own an OAuth client or
   * gave a grant: false then, deleting nothing, and when there is no such user.
   */
  deleteUnlessClientsOrGrants(id: string): Promise<boolean>;
}

/** docs/rules.md#profile: a sign-in address change an application asked for, waiting for the user. */
export interface EmailChangeRequest {
  userId: string;
  /** Lower case. */
  email: string;
  /** The application that asked; null once it is deleted. */
  clientId: string | null;
  requestedAt: number;
  expiresAt: number;
}

/** A session of a browser: only the hash of its cookie's token is stored. */
export interface NewSession {
  idHash: string;
  userId: string;
  createdAt: number;
  expiresAt: number;
}

export interface SessionStore {
  /** Inserts the session; a duplicate hash (never expected of 32 random bytes) rejects. */
  insert(session: NewSession): Promise<void>;
  /**
   * The user of the session with this hash and when it was created, if it expires after
   * `now`; undefined for an unknown, expired or ended session.
   */
  findLive(idHash: string, now: number): Promise<{ user: User; createdAt: number } | undefined>;
  /** Ends the session; an unknown hash is no-op. */
  delete(idHash: string): Promise<void>;
  /** Ends every session of the user; returns how many there were. */
  deleteForUser(userId: string): Promise<number>;
}

/** A one-time notice of a session, sealed by the service: the store never reads it. */
export interface NewNotice {
  id: string;
  sessionHash: string;
  sealed: string;
  createdAt: number;
  expiresAt: number;
}

export interface NoticeStore {
  /**
   * Inserts the notice, and deletes the session's notices that expired by `createdAt` (so
   * that unread ones do not pile up). Rejects when the session does not exist.
   */
  insert(notice: NewNotice): Promise<void>;
  /**
   * Deletes and returns the sealed text of the notice with this id, if it belongs to this
   * session and expires after `now`; undefined otherwise. Single use is decided by the
   * delete itself: of two concurrent takes, exactly one gets the text.
   */
  take(id: string, sessionHash: string, now: number): Promise<string | undefined>;
}

export type ResourceKind = 'email' | 'phone';
/** Whose address it is: a user's or a team's. */
export type VerificationOwner = { userId: string } | { teamId: string };

/** An email address or phone number of an owner, verified or with a code pending. */
export interface VerifiedResource {
  id: string;
  userId: string | null;
  teamId: string | null;
  kind: ResourceKind;
  value: string;
  verifiedAt: number | null;
  /** The pending code's hash, salted with the id; null when no code is pending. */
  codeHash: string | null;
  codeExpiresAt: number | null;
  attempts: number;
  createdAt: number;
  updatedAt: number;
}

export interface VerifiedResourceStore {
  /** The owner's resource of this kind and value; undefined when there is none. */
  find(owner: VerificationOwner, kind: ResourceKind, value: string): Promise<VerifiedResource | undefined>;
  /** The owner's verified resources of a kind, in the order they were verified. */
  listVerified(owner: VerificationOwner, kind: ResourceKind, limit: number, offset: number): Promise<VerifiedResource[]>;
  /** Inserts the resource. Returns false, writing nothing, when the owner already has it. */
  insert(resource: VerifiedResource): Promise<boolean>;
  /** Makes this code the pending one, replacing any other, and resets the attempts. */
  setPendingCode(id: string, codeHash: string, expiresAt: number, at: number): Promise<void>;
  /**
   * Counts one attempt if a code is pending and fewer than maxAttempts were made; false
   * otherwise. Atomic: parallel guesses cannot exceed the limit.
   */
  spendAttempt(id: string, maxAttempts: number, at: number): Promise<boolean>;
  /**
   * Marks the resource verified and clears the code, only if this very code is still
   * pending; false when it was spent or replaced meanwhile (single use, ARCHITECTURE.md#single-use-is-atomic).
   */
  markVerified(id: string, codeHash: string, at: number): Promise<boolean>;
}
