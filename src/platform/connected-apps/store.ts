// Connected calendars, ICS feeds and team apps (the /v2 calendars and team apps routes):
// stored records only; Gatehouse calls no outside calendar service.

export type AppOwner = { userId: string } | { teamId: string };

export interface ConnectedApp {
  id: string;
  owner: AppOwner;
  /** Which app: google-calendar, ics-feed, zoom, ... */
  app: string;
  category: string;
  account: string;
  name: string;
  readOnly: boolean;
  createdAt: number;
  /** The user selected it for conflict checks (POST /v2/selected-calendars); false for a team's app. */
  selected: boolean;
  /** The user's chosen destination calendar (PUT /v2/destination-calendars); at most one per user. */
  destination: boolean;
}

/** A connection as it is made: neither selected nor a destination until the user says so. */
export type NewConnectedApp = Omit<ConnectedApp, 'selected' | 'destination'>;

export interface ConnectedAppStore {
  /**
   * Inserts all of them or none. Returns false, inserting none, when one is an account the
   * owner already connected to that app (a duplicate key); other failures throw. Not to be
   * called inside a PostgreSQL transaction that must survive the duplicate.
   */
  insertAll(apps: NewConnectedApp[]): Promise<boolean>;
  /** The owner's connections, optionally of one category or app, oldest first; at most 500. */
  list(owner: AppOwner, filter?: { category?: string; app?: string }): Promise<ConnectedApp[]>;
  /**
   * The owner's connection of that id, if it is of the category and app given; undefined
   * otherwise (another owner's, another app's, or none). One row read, whatever the owner has.
   */
  find(owner: AppOwner, id: string, filter?: { category?: string; app?: string }): Promise<ConnectedApp | undefined>;
  /** The owner's connection of that app to that account; undefined when there is none. */
  findAccount(owner: AppOwner, app: string, account: string): Promise<ConnectedApp | undefined>;
  /** Removes the owner's connection of that app and id; false when there was none. */
  delete(owner: AppOwner, app: string, id: string): Promise<boolean>;
  /** The user's default conferencing app (docs/integrating.md#conferencing-apps); undefined when none is chosen. */
  defaultOf(userId: string): Promise<ConnectedApp | undefined>;
  /**
   * Makes that connection of the user's their default, in place of any other. False when the
   * connection is not the user's (or no longer exists). Disconnecting it clears the default.
   */
  setDefault(userId: string, id: string, at: number): Promise<boolean>;
  /** Marks the user's connection of that id selected or not; false when the user has none of that id. */
  setSelected(userId: string, id: string, selected: boolean): Promise<boolean>;
  /**
   * Makes the user's connection of that id their one destination, the others not; false,
   * changing nothing, when the user has none of that id. Two statements: call it in a
   * transaction (ServiceStores.transaction).
   */
  setDestination(userId: string, id: string): Promise<boolean>;
}
