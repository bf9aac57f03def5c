// The connection requests behind the connect pages (docs/rules.md#connect-pages): a calendar or
// conferencing connection an application asked for through the platform's OAuth addresses,
// held until its user confirms or cancels it, or it expires. src/storage/stores/platform/
// connection-requests.ts implements it.

export type ConnectionKind = 'calendar' | 'conferencing';

export interface ConnectionRequest {
  /** SHA-256 of the token (hashToken): the token is in the page's address only, never kept. */
  tokenHash: string;
  /** The user the asking token acts for: the only one who may confirm it. */
  userId: string;
  /** The client of the access token that asked. */
  clientId: string;
  kind: ConnectionKind;
  /** The platform's name in the path: google or office365 for a calendar, zoom or msteams for a conferencing app. */
  provider: string;
  /** A calendar's `redir` (null when none was given), or a conferencing app's `returnTo`. */
  returnTo: string | null;
  /** A conferencing app's `onErrorReturnTo`; null for a calendar. */
  onErrorReturnTo: string | null;
  createdAt: number;
  expiresAt: number;
}

/** A waiting request with the name of the application that asked, as its page shows it. */
export interface ConnectionRequestForPage extends ConnectionRequest {
  clientName: string;
}

export interface ConnectionRequestStore {
  insert(request: ConnectionRequest): Promise<void>;
  /** The request of that hash with its client's name, if it is neither used nor expired at `now`; undefined otherwise. */
  findLive(tokenHash: string, now: number): Promise<ConnectionRequestForPage | undefined>;
  /**
   * Marks the user's request of that hash used at `now` and returns it, in one conditional
   * UPDATE (ARCHITECTURE.md#single-use-is-atomic): of two concurrent calls one wins. Undefined,
   * changing nothing, when there is no such request of that user's that is neither used nor
   * expired.
   */
  consume(tokenHash: string, userId: string, now: number): Promise<ConnectionRequest | undefined>;
}
