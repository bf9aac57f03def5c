// The outbox and its deliveries (docs/rules.md#webhooks, docs/rules.md#client-events), as the webhook services see them. A delivery goes
// to one destination: a webhook of a user or an organization, or an OAuth client's events URL.
import type { ClientNotification, NotificationStore } from '../../oauth/storage.ts';

/** Application notifications to a client's events URL (docs/integrating.md#webhooks): the core's and the services'. */
export type ApplicationNotification = ClientNotification | 'authorization.revoked' | 'client.suspended' | 'client.approved';

export type Destination = { webhookId: string } | { clientId: string };

export type DeliveryStatus = 'pending' | 'delivered' | 'failed';

/** A delivery as its owner sees it. */
export interface Delivery {
  id: string;
  destination: Destination;
  event: string;
  payload: string;
  status: DeliveryStatus;
  attempts: number;
  nextAttemptAt: number | null;
  lastAttemptAt: number | null;
  responseStatus: number | null;
  responseBody: string | null;
  error: string | null;
  createdAt: number;
}

/** A claimed attempt: the delivery and where and how to send it. */
export interface ClaimedDelivery {
  id: string;
  destination: Destination;
  event: string;
  payload: string;
  createdAt: number;
  /** The number of this attempt (1 for the first). */
  attempt: number;
  url: string;
  secret: string;
}

export interface AttemptOutcome {
  at: number;
  delivered: boolean;
  responseStatus: number | null;
  responseBody: string | null;
  error: string | null;
  /** Due time of the next attempt; null when this one was the last (delivered or failed). */
  nextAttemptAt: number | null;
}

/** Whose an event is, for finding the webhooks that hear of it. */
export interface EventOwner {
  /** The user whose own webhooks hear of it (a booking's host); null for none. */
  hostId: string | null;
  teamId: string | null;
  /** An organization's own record (an organization routing form); null otherwise. */
  organizationId?: string | null;
  /** The booking's event type, whose own webhooks hear of it; null or absent for none. */
  eventTypeId?: string | null;
}

export interface ClientEventsSettings {
  eventsUrl: string | null;
  /** Whether a signing secret exists (never the secret itself). */
  hasSecret: boolean;
}

/** The outbox: the messages written to it, their claims and attempts; and the client settings notifications need. */
export interface WebhookDeliveryStore extends NotificationStore<ApplicationNotification> {
  /**
   * Ids of the active webhooks subscribed to `trigger` that hear of an event: the host's
   * own, its event type's own, and those of the owner's organization: the organization
   * itself, the organization of the team, or, for a personal record, every organization the
   * host is a member of.
   */
  subscribedWebhooks(trigger: string, owner: EventOwner): Promise<string[]>;
  /**
   * Writes one message per destination to the outbox, due at once, and returns their ids in
   * the destinations' order. Each has its own Standard Webhooks message id (`webhook-id`, the
   * same on every attempt) and, as the body it is signed and sent with, the envelope
   * `{ type: event, timestamp: at as ISO 8601, data }` (docs/integrating.md#webhooks). With the caller's
   * transaction, they land with the change.
   */
  enqueue(destinations: Destination[], event: string, data: Record<string, unknown>, at: number): Promise<string[]>;
  /**
   * Writes a copy of the destination's delivery as a new message, due at `at`: a new id, the
   * same event and body, byte for byte. Returns the copy's id; undefined when the destination
   * has no delivery of that id.
   */
  redeliver(destination: Destination, id: string, at: number): Promise<string | undefined>;
  /**
   * Claims up to `limit` pending deliveries due at `now` to a destination that can take them,
   * oldest due first: each claim counts an attempt and moves the due time to `leaseUntil`, so
   * that no other caller claims it meanwhile (one UPDATE of the rows it picks; on PostgreSQL
   * the pick is `FOR UPDATE SKIP LOCKED`). Two concurrent callers never get the same attempt.
   */
  claimDue(now: number, leaseUntil: number, limit: number): Promise<ClaimedDelivery[]>;
  /** Records the outcome of an attempt; false when that attempt is no longer the delivery's latest claim. */
  recordAttempt(id: string, attempt: number, outcome: AttemptOutcome): Promise<boolean>;
  /** Notes a failure of the webhook; returns since when it has been failing without a success. */
  markFailing(webhookId: string, now: number): Promise<number>;
  /** Notes a success: the webhook is no longer failing. */
  markHealthy(webhookId: string): Promise<void>;
  /** Turns the webhook off with a reason its owner sees; its pending deliveries are failed. */
  disable(webhookId: string, reason: string, now: number): Promise<void>;
  /** The destination's deliveries, newest first. */
  list(destination: Destination, limit: number, offset: number): Promise<Delivery[]>;
  /** One delivery of the destination; undefined when it has none of that id. */
  find(destination: Destination, id: string): Promise<Delivery | undefined>;
  /** The client's events URL and whether it has a signing secret (both are needed for it to be told anything). */
  clientEvents(clientId: string): Promise<ClientEventsSettings>;
  /** Sets (or, with null, removes) the client's events URL. */
  setClientEventsUrl(clientId: string, url: string | null, now: number): Promise<void>;
  /** The client's signing secret itself, for the service that signs and rotates it; null when it has none. */
  clientEventsSecret(clientId: string): Promise<string | null>;
  /**
   * Sets the client's signing secret to `secret` only while it is still `current` (null:
   * while it has none), in one conditional UPDATE: of two rotations of the same secret, or
   * two first secrets, one writes and the other finds it changed
   * (ARCHITECTURE.md#single-use-is-atomic). Returns whether it wrote.
   */
  replaceClientEventsSecret(clientId: string, current: string | null, secret: string, now: number): Promise<boolean>;
}
