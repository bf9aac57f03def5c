// Row types of every table, as Kysely sees them. Times are integer milliseconds since the
// epoch (BIGINT on PostgreSQL, INTEGER on SQLite); flags are 0/1 integers, so one set of
// migrations and one set of queries serve both dialects.
import type { Generated } from 'kysely';

export interface UsersTable {
  id: string;
  email: string;
  name: string;
  username: string;
  password_hash: string;
  is_admin: number;
  time_zone: string;
  week_start: string;
  time_format: number;
  default_schedule_id: string | null;
  organization_id: string | null;
  created_at: number;
  updated_at: number;
  /** The organization whose admin made the account through the API (migration 022); null otherwise. */
  created_by_organization_id: string | null;
  /** docs/rules.md#profile: what the user tells of themselves (migration 029); null when never given. */
  bio: string | null;
  avatar_url: string | null;
  locale: string | null;
  /** A JSON object of at most 50 string, number or boolean values; `{}` when none. */
  metadata: Generated<string>;
}

export interface SessionsTable {
  id_hash: string;
  user_id: string;
  created_at: number;
  expires_at: number;
}

export interface SessionNoticesTable {
  id: string;
  session_hash: string;
  sealed: string;
  created_at: number;
  expires_at: number;
}

export interface OAuthClientsTable {
  id: string;
  name: string;
  description: string;
  homepage_url: string;
  logo_url: string | null;
  owner_id: string;
  kind: 'confidential' | 'public';
  /** JSON array of strings. */
  redirect_uris: string;
  /** Space-separated scope names in registry order; NULL for a legacy client. */
  scopes: string | null;
  state: 'pending' | 'approved' | 'rejected' | 'suspended';
  review_note: string | null;
  reviewed_by: string | null;
  reviewed_at: number | null;
  is_resource_server: number;
  /** docs/rules.md#client-changes: additions awaiting review, JSON array / space-separated; NULL when none. */
  proposed_redirect_uris: string | null;
  proposed_scopes: string | null;
  /** docs/rules.md#client-events: where application notifications go, and their signing secret (migration 008). */
  events_url: string | null;
  events_secret: string | null;
  /** docs/rules.md#pushed-authorization: 1 when the client must push its authorization requests (migration 013). */
  require_pushed_authorization_requests: Generated<number>;
  /** docs/rules.md#review-versions: raised by every change of the configuration or of the held change. */
  version: Generated<number>;
  /** RFC 9449 §5.2: its access tokens must be DPoP-bound (migration 014); 0/1. */
  dpop_bound_access_tokens: Generated<number>;
  /** docs/rules.md#fapi2: 1 when the client follows the FAPI 2.0 Security Profile (migration 016). */
  fapi2: Generated<number>;
  /** docs/rules.md#client-authentication: the registered method; NULL is the kind's default (migration 018). */
  token_endpoint_auth_method: string | null;
  /** docs/rules.md#client-authentication: the client's public keys, a JWK Set as JSON; NULL when none (migration 018). */
  jwks: string | null;
  /** OpenID Connect Registration §2 (migration 033): the ID tokens' algorithm; NULL is the default. */
  id_token_signed_response_alg: string | null;
  /** OpenID Connect RP-Initiated Logout §3.1 (migration 033): a JSON array of strings; NULL when none. */
  post_logout_redirect_uris: string | null;
  created_at: number;
  updated_at: number;
}

/** docs/operating.md#signing-keys: the keys ID tokens are signed with (migration 033). */
export interface SigningKeysTable {
  kid: string;
  /** The set it belongs to: 1 for the first, one more per rotation; one key of each kty per set. */
  generation: number;
  kty: string;
  /** The public JWK as JSON. */
  public_jwk: string;
  /** The private JWK, a compact JWE under SIGNING_KEYS_SECRET: never in clear. */
  sealed_private_jwk: string;
  created_at: number;
  /** When a rotation replaced it; NULL while it signs. */
  retired_at: number | null;
}

export interface ClientSecretsTable {
  id: string;
  client_id: string;
  secret_hash: string;
  last_four: string;
  created_at: number;
  last_used_at: number | null;
  removed_at: number | null;
}

export interface AuthorizationRequestsTable {
  id: Generated<number>;
  client_id: string;
  user_id: string | null;
  had_scope: number;
  created_at: number;
}

/** docs/rules.md#profile: a sign-in address change an application asked for, until the user confirms it (migration 026). */
export interface EmailChangeRequestsTable {
  user_id: string;
  email: string;
  client_id: string | null;
  requested_at: number;
  expires_at: number;
}

export interface GrantsTable {
  id: string;
  user_id: string;
  client_id: string;
  scopes: string | null;
  /** docs/rules.md#team-authorization: the team the grant acts for; null: it acts for its user. */
  team_id: string | null;
  created_at: number;
  revoked_at: number | null;
  /**
   * docs/integrating.md#enterprise-managed-agents: the identity provider whose ID-JAG made the
   * grant (migration 034); null: the user's own consent.
   */
  identity_provider_id: Generated<string | null>;
}

/** docs/integrating.md#enterprise-managed-agents: an IdP an organization trusts (migration 034). */
export interface IdentityProvidersTable {
  id: string;
  organization_id: string;
  issuer: string;
  jwks_uri: string;
  /** Lower-case e-mail domains, space-separated. */
  domains: string;
  /** Space-separated scope names in registry order; NULL: the organization's reach. */
  scopes: string | null;
  created_at: number;
  created_by: string;
}

/** docs/integrating.md#enterprise-managed-agents: an IdP's subject, linked to an account (migration 034). */
export interface IdentityLinksTable {
  issuer: string;
  subject: string;
  user_id: string;
  created_at: number;
  /** The operator's mark when linked by hand; NULL when linked by the first ID-JAG's e-mail. */
  created_by: string | null;
}

export interface AuthorizationCodesTable {
  code_hash: string;
  client_id: string;
  user_id: string;
  grant_id: string;
  redirect_uri: string;
  scopes: string | null;
  code_challenge: string | null;
  /** RFC 8707 resources, space-separated (migration 009); NULL is the default resource. */
  resources: string | null;
  /** RFC 9449 §10: the JWK thumbprint the authorization request named (migration 014); NULL: none. */
  dpop_jkt: string | null;
  created_at: number;
  expires_at: number;
  consumed_at: number | null;
  /** OpenID Connect Core §3.1.2.1: the request's nonce, for its ID token (migration 033); NULL: none sent. */
  nonce: string | null;
  /** OpenID Connect Core §2: when the user last logged in, for the ID token's auth_time (migration 033); NULL for codes made before. */
  auth_time: number | null;
}

/** docs/rules.md#pushed-authorization: RFC 9126 requests, by the SHA-256 of the request_uri (migration 013). */
export interface PushedAuthorizationRequestsTable {
  request_hash: string;
  client_id: string;
  /** JSON object of the authorization parameters, one string each. */
  parameters: string;
  /** RFC 8707 resources, space-separated; NULL when none was sent. */
  resources: string | null;
  created_at: number;
  expires_at: number;
  consumed_at: number | null;
}

export interface AccessTokensTable {
  token_hash: string;
  grant_id: string;
  /** The code it descends from (migration 006); null for older tokens whose code was gone. */
  code_hash: string | null;
  client_id: string;
  user_id: string;
  scopes: string | null;
  /** As authorization_codes.resources: what the token may be presented to. */
  resources: string | null;
  /** RFC 9449 §6: the thumbprint of the key the token is bound to (migration 014); NULL: a bearer token. */
  dpop_jkt: string | null;
  created_at: number;
  expires_at: number;
  revoked_at: number | null;
}

export interface RefreshTokensTable {
  id: string;
  token_hash: string;
  grant_id: string;
  /** As access_tokens.code_hash. */
  code_hash: string | null;
  client_id: string;
  user_id: string;
  scopes: string | null;
  /** As authorization_codes.resources: the grant's, kept through rotation. */
  resources: string | null;
  /** RFC 9449 §5: a public client's key, kept through rotation (migration 014); NULL: unbound. */
  dpop_jkt: string | null;
  parent_id: string | null;
  created_at: number;
  expires_at: number;
  spent_at: number | null;
  successor_box: string | null;
  revoked_at: number | null;
}

/** RFC 9449 §11.1: a DPoP proof already accepted, by a hash of its key and jti (migration 014). */
export interface DpopProofsTable {
  proof_key: string;
  expires_at: number;
}

/** docs/rules.md#cimd-policy: an admin's decision about a metadata document host (migration 009). */
export interface ClientMetadataHostsTable {
  host: string;
  decision: 'trusted' | 'distrusted';
  /** The admin's user id; NULL when decided by an operator at the CLI. */
  decided_by: string | null;
  decided_at: number;
}

export interface AuditEventsTable {
  id: Generated<number>;
  type: string;
  actor_id: string | null;
  client_id: string | null;
  user_id: string | null;
  data: string | null;
  created_at: number;
}

// Platform resources (migration 002). A row belongs to exactly one owner column of the
// pairs user/team or user/organization or team/organization (check constraints).

export interface OrganizationsTable {
  id: string;
  name: string;
  slug: string;
  created_at: number;
  updated_at: number;
}

export interface TeamsTable {
  id: string;
  organization_id: string | null;
  name: string;
  slug: string;
  bio: string;
  time_zone: string;
  brand_color: string;
  created_at: number;
  updated_at: number;
}

export interface MembershipsTable {
  id: string;
  user_id: string;
  /** Exactly one of team_id and organization_id is set. */
  team_id: string | null;
  organization_id: string | null;
  role: 'member' | 'admin' | 'owner';
  created_at: number;
  updated_at: number;
}

/** docs/rules.md#membership-invitations: a pending invitation; it grants nothing until accepted (migration 003). */
export interface MembershipInvitationsTable {
  id: string;
  /** Exactly one of team_id and organization_id is set. */
  team_id: string | null;
  organization_id: string | null;
  /** Exactly one of email (lower-case) and user_id is set: whom the inviter named. */
  email: string | null;
  user_id: string | null;
  role: 'member' | 'admin' | 'owner';
  invited_by: string | null;
  created_at: number;
  updated_at: number;
}

export interface EventTypesTable {
  id: string;
  user_id: string | null;
  team_id: string | null;
  title: string;
  slug: string;
  description: string;
  length_minutes: number;
  /** JSON array of { type, value }. */
  locations: string;
  /** JSON array of the booking fields set (docs/integrating.md#booking-fields, migration 031); '[]': the default fields only. */
  booking_fields: Generated<string>;
  hidden: number;
  requires_confirmation: number;
  minimum_booking_notice: number;
  scheduling_type: string | null;
  /** docs/integrating.md#slot-rules (migration 035): minutes between two starts; null: the length. */
  slot_interval: number | null;
  before_event_buffer: Generated<number>;
  after_event_buffer: Generated<number>;
  /** JSON: {type: 'calendarDays' | 'businessDays', days, rolling} or {type: 'range', from, to}; null: no limit. */
  booking_window: string | null;
  /** JSON: {day?, week?, month?, year?}, bookings a host takes of the event type; null: no limit. */
  booking_limits_count: string | null;
  /** Bookers a slot takes; null: one (no seats). */
  seats_per_time_slot: number | null;
  seats_show_attendees: Generated<number>;
  seats_show_availability_count: Generated<number>;
  /** docs/integrating.md#slot-rules (migration 036): JSON {day?, week?, month?, year?}, minutes of the event type's bookings a host takes; null: no limit. */
  booking_limits_duration: string | null;
  /** 1: only the first free slot of each day is offered. */
  only_first_slot: Generated<number>;
  /** Minutes every start is shifted by from the start of the hours. */
  offset_start: Generated<number>;
  created_at: number;
  updated_at: number;
}

export interface PrivateLinksTable {
  id: string;
  event_type_id: string;
  link_hash: string;
  expires_at: number | null;
  max_uses: number | null;
  use_count: number;
  created_at: number;
}

/** The other hosts of a collective team booking (migration 035): each member it took beside bookings.user_id. */
export interface BookingHostsTable {
  booking_uid: string;
  user_id: string;
}

export interface BookingsTable {
  uid: string;
  /** docs/rules.md#numbered-ids: the booking's number, beside the uid that addresses it (migration 017). */
  id: string;
  event_type_id: string | null;
  user_id: string | null;
  team_id: string | null;
  title: string;
  description: string;
  start_time: number;
  end_time: number;
  status: 'pending' | 'accepted' | 'declined' | 'cancelled' | 'rescheduled';
  attendee_name: string;
  attendee_email: string;
  attendee_time_zone: string;
  /** JSON array of email addresses. */
  guests: string;
  location: string;
  cancellation_reason: string | null;
  decline_reason: string | null;
  rescheduled_from: string | null;
  rescheduled_to: string | null;
  /** SHA-256 of the booker's manageToken (docs/rules.md#public-booking); NULL for bookings older than it. */
  manage_token_hash: string | null;
  /** 1 when the host was marked absent (migration 019). */
  absent_host: number;
  /** JSON object of the answers to the event type's booking fields, by slug (migration 031). */
  booking_field_responses: Generated<string>;
  created_at: number;
  updated_at: number;
}

/** A booking's attendees (migration 019): its booker, its guests, and those added later. */
export interface BookingAttendeesTable {
  id: string;
  booking_uid: string;
  role: 'booker' | 'guest' | 'added';
  email: string;
  /** '' for a guest, who is known by address only. */
  name: string;
  time_zone: string;
  phone_number: string | null;
  language: string | null;
  /** 1 when marked absent. */
  absent: number;
  created_at: number;
}

/** A booking's event in an outside calendar or video service, as an operator recorded it (migration 019). */
export interface BookingReferencesTable {
  id: string;
  booking_uid: string;
  type: string;
  event_uid: string;
  destination_calendar_id: string | null;
  created_at: number;
}

export interface BookingRecordingsTable {
  id: string;
  booking_uid: string;
  room_name: string;
  /** Seconds since the epoch, as the video provider reports it. */
  start_ts: number;
  status: string;
  max_participants: number | null;
  /** Seconds. */
  duration: number;
  share_token: string;
  download_link: string | null;
  error: string | null;
  created_at: number;
}

export interface BookingTranscriptsTable {
  id: string;
  booking_uid: string;
  url: string;
  created_at: number;
}

/** docs/rules.md#invite-links: a link anyone signed in may join a team by while it lives (migrations 023, 028). */
export interface TeamInviteLinksTable {
  /** Random, no secret: how admins list and revoke the link. */
  id: string;
  /** SHA-256 of the token (base64url): the token itself is never kept. */
  token_hash: string;
  team_id: string;
  created_by: string | null;
  /** The grant of the token that made it through the API; NULL for a link made otherwise. */
  grant_id: string | null;
  expires_at: number;
  created_at: number;
}

/** docs/rules.md#invite-links: a team membership that ended, left or removed (migration 028). */
export interface TeamDeparturesTable {
  membership_id: string;
  team_id: string;
  user_id: string;
  left_at: number;
}

/**
 * docs/rules.md#connect-pages: a calendar or conferencing connection an application asked for,
 * awaiting the user's confirmation on the connect page (migration 025).
 */
/** Migration 032: slots held for a few minutes (docs/integrating.md#slot-reservations). */
export interface SlotReservationsTable {
  /** The holder's proof: whoever sends it may book the slot, change or release the hold. */
  uid: string;
  event_type_id: string;
  start_time: number;
  end_time: number;
  created_at: number;
  expires_at: number;
}

export interface ConnectionRequestsTable {
  /** SHA-256 of the token (base64url): the token itself is never kept. */
  token_hash: string;
  user_id: string;
  /** The client of the access token that asked. */
  client_id: string;
  /** 'calendar' or 'conferencing'. */
  kind: string;
  /** The platform's name in the path: google, office365, zoom or msteams. */
  provider: string;
  /** Where the user goes back to: a calendar's redir (NULL when none was given) or a conferencing app's returnTo. */
  return_to: string | null;
  /** A conferencing app's onErrorReturnTo; NULL for a calendar. */
  on_error_return_to: string | null;
  created_at: number;
  expires_at: number;
  /** When it was confirmed or cancelled; NULL while it waits. */
  consumed_at: number | null;
}

/** docs/integrating.md#phone-calls: an outbound call asked of a team event type, held for an operator (migration 023). */
export interface PhoneCallsTable {
  id: string;
  team_id: string;
  event_type_id: string;
  requested_by: string | null;
  your_phone_number: string;
  number_to_call: string;
  enabled: number;
  template_type: 'CHECK_IN_APPOINTMENT' | 'CUSTOM_TEMPLATE';
  scheduler_name: string | null;
  guest_name: string | null;
  guest_email: string | null;
  guest_company: string | null;
  begin_message: string | null;
  general_prompt: string | null;
  /** 'queued' until an operator places it. */
  status: string;
  created_at: number;
}

export interface BookingConferencingSessionsTable {
  id: string;
  booking_uid: string;
  room: string;
  /** Seconds since the epoch, as the video provider reports it. */
  start_time: number;
  /** Seconds. */
  duration: number;
  ongoing: number;
  max_participants: number;
  /** JSON array of {userId, userName, joinTime, duration}. */
  participants: string;
  created_at: number;
}

export interface SchedulesTable {
  id: string;
  user_id: string | null;
  team_id: string | null;
  name: string;
  time_zone: string;
  /** JSON arrays of weekly ranges and of dated overrides. */
  availability: string;
  overrides: string;
  created_at: number;
  updated_at: number;
}

/** docs/rules.md#out-of-office: a user away from start_time to end_time (migration 015). */
export interface OutOfOfficeEntriesTable {
  id: string;
  uuid: string;
  user_id: string;
  /** Who covers, or null. */
  to_user_id: string | null;
  start_time: number;
  end_time: number;
  notes: string | null;
  reason: 'unspecified' | 'vacation' | 'travel' | 'sick' | 'public_holiday';
  created_at: number;
  updated_at: number;
}

export interface ConnectedAppsTable {
  id: string;
  user_id: string | null;
  team_id: string | null;
  app: string;
  category: string;
  account: string;
  name: string;
  read_only: number;
  created_at: number;
  /** 1 when the user selected the calendar for conflict checks (migration 022). */
  selected: number;
  /** 1 on the user's one destination calendar (migration 022). */
  destination: number;
}

/** A user's default conferencing app: one of their connections (migration 021). */
export interface ConferencingDefaultsTable {
  user_id: string;
  connected_app_id: string;
  updated_at: number;
}

export interface WebhooksTable {
  id: string;
  user_id: string | null;
  organization_id: string | null;
  /** The event type whose bookings it hears of (migration 020); exactly one of the three owners is set. */
  event_type_id: string | null;
  subscriber_url: string;
  /** JSON array of trigger names. */
  triggers: string;
  active: number;
  payload_template: string | null;
  /** Standard Webhooks signing secret (whsec_…), kept as is: signing needs it (migration 008). */
  secret: string | null;
  /** When its deliveries started failing without a success since; null when healthy. */
  failing_since: number | null;
  /** Why Gatehouse turned it off, for its owner; null unless turned off by Gatehouse. */
  disabled_reason: string | null;
  created_at: number;
  updated_at: number;
}

/** docs/rules.md#webhooks, docs/rules.md#client-events: the outbox. One row per event and destination (a webhook or a client's events URL). */
export interface WebhookDeliveriesTable {
  id: string;
  webhook_id: string | null;
  client_id: string | null;
  event: string;
  /** The JSON body sent, exactly as signed. */
  payload: string;
  status: 'pending' | 'delivered' | 'failed';
  attempts: Generated<number>;
  /** Due time while pending (a claim moves it past the attempt); null once delivered or failed. */
  next_attempt_at: number | null;
  last_attempt_at: number | null;
  response_status: number | null;
  /** The first 1 KB of the last answer. */
  response_body: string | null;
  /** Why the last attempt got no answer (timeout, refused address); null when it got one. */
  error: string | null;
  created_at: number;
}

export interface VerifiedResourcesTable {
  id: string;
  user_id: string | null;
  team_id: string | null;
  kind: 'email' | 'phone';
  value: string;
  verified_at: number | null;
  /** SHA-256 of the pending code; NULL when none is pending. */
  code_hash: string | null;
  code_expires_at: number | null;
  attempts: number;
  created_at: number;
  updated_at: number;
}

export interface RoutingFormsTable {
  id: string;
  team_id: string | null;
  organization_id: string | null;
  name: string;
  description: string;
  /** JSON array of field definitions. */
  fields: string;
  disabled: number;
  created_at: number;
  updated_at: number;
}

export interface RoutingFormResponsesTable {
  id: string;
  form_id: string;
  /** JSON object: field id → value. */
  response: string;
  created_at: number;
  updated_at: number;
}

export interface WorkflowsTable {
  id: string;
  team_id: string;
  name: string;
  trigger: string;
  time_offset_minutes: number;
  /** JSON arrays of steps and of event type ids. */
  steps: string;
  active_on: string;
  active: number;
  created_at: number;
  updated_at: number;
}

/**
 * docs/rules.md#numbered-ids: the last id each series handed out, on SQLite only; PostgreSQL
 * keeps a sequence per series (id_series_<name>), migration 017.
 */
export interface IdSeriesTable {
  name: string;
  last_value: number;
}

export interface Database {
  users: UsersTable;
  sessions: SessionsTable;
  session_notices: SessionNoticesTable;
  oauth_clients: OAuthClientsTable;
  client_secrets: ClientSecretsTable;
  authorization_requests: AuthorizationRequestsTable;
  grants: GrantsTable;
  identity_providers: IdentityProvidersTable;
  identity_links: IdentityLinksTable;
  email_change_requests: EmailChangeRequestsTable;
  client_metadata_hosts: ClientMetadataHostsTable;
  authorization_codes: AuthorizationCodesTable;
  signing_keys: SigningKeysTable;
  pushed_authorization_requests: PushedAuthorizationRequestsTable;
  access_tokens: AccessTokensTable;
  dpop_proofs: DpopProofsTable;
  refresh_tokens: RefreshTokensTable;
  audit_events: AuditEventsTable;
  organizations: OrganizationsTable;
  teams: TeamsTable;
  memberships: MembershipsTable;
  membership_invitations: MembershipInvitationsTable;
  event_types: EventTypesTable;
  private_links: PrivateLinksTable;
  bookings: BookingsTable;
  booking_hosts: BookingHostsTable;
  booking_attendees: BookingAttendeesTable;
  booking_references: BookingReferencesTable;
  booking_recordings: BookingRecordingsTable;
  booking_transcripts: BookingTranscriptsTable;
  booking_conferencing_sessions: BookingConferencingSessionsTable;
  schedules: SchedulesTable;
  out_of_office_entries: OutOfOfficeEntriesTable;
  connected_apps: ConnectedAppsTable;
  conferencing_defaults: ConferencingDefaultsTable;
  webhooks: WebhooksTable;
  webhook_deliveries: WebhookDeliveriesTable;
  verified_resources: VerifiedResourcesTable;
  routing_forms: RoutingFormsTable;
  routing_form_responses: RoutingFormResponsesTable;
  workflows: WorkflowsTable;
  team_invite_links: TeamInviteLinksTable;
  team_departures: TeamDeparturesTable;
  phone_calls: PhoneCallsTable;
  connection_requests: ConnectionRequestsTable;
  slot_reservations: SlotReservationsTable;
  id_series: IdSeriesTable;
}
