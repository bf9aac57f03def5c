// Webhook subscriptions of a user, an organization or an event type (the /v2 webhooks
// routes and the event types' …/webhooks). Their deliveries are the outbox's
// (src/services/webhooks/store.ts).

export type WebhookOwner = { userId: string } | { organizationId: string } | { eventTypeId: string };

export interface Webhook {
  id: string;
  /** The user of a personal webhook; null for an organization's. */
  ownerId: string | null;
  organizationId: string | null;
  /** The event type of an event type's webhook, which hears of that event type's bookings only; null otherwise. */
  eventTypeId: string | null;
  subscriberUrl: string;
  triggers: string[];
  active: boolean;
  payloadTemplate: string | null;
  /** Why Gatehouse turned it off (docs/rules.md#webhooks: failing 5 days running); null otherwise. */
  disabledReason: string | null;
  createdAt: number;
  updatedAt: number;
}

export type WebhookChanges = Partial<Pick<Webhook, 'subscriberUrl' | 'triggers' | 'active' | 'payloadTemplate'>> & { updatedAt: number };

export interface WebhookStore {
  /** Inserts it with its signing secret; a duplicate id throws. */
  insert(webhook: Webhook, secret: string): Promise<void>;
  /** The webhook only if the owner has it; undefined otherwise. */
  find(owner: WebhookOwner, id: string): Promise<Webhook | undefined>;
  /** The owner's webhooks, oldest first. */
  list(owner: WebhookOwner, limit: number, offset: number): Promise<Webhook[]>;
  /**
   * Changes the owner's webhook and returns it as stored; undefined when the owner has none of
   * that id. Turning it on again clears the reason Gatehouse turned it off and its failing days.
   */
  update(owner: WebhookOwner, id: string, changes: WebhookChanges): Promise<Webhook | undefined>;
  /** Removes the owner's webhook; false when the owner has none of that id. */
  delete(owner: WebhookOwner, id: string): Promise<boolean>;
  /** Removes every webhook of the owner; returns how many there were. */
  deleteAll(owner: WebhookOwner): Promise<number>;
}
