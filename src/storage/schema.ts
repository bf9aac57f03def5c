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
}

export interface SessionsTable {
  id_hash: string;
  user_id: string;
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
  /** SPEC §2 item 20: additions awaiting review, JSON array / space-separated; NULL when none. */
  proposed_redirect_uris: string | null;
  proposed_scopes: string | null;
  created_at: number;
  updated_at: number;
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

export interface GrantsTable {
  id: string;
  user_id: string;
  client_id: string;
  scopes: string | null;
  created_at: number;
  revoked_at: number | null;
}

export interface AuthorizationCodesTable {
  code_hash: string;
  client_id: string;
  user_id: string;
  grant_id: string;
  redirect_uri: string;
  scopes: string | null;
  code_challenge: string | null;
  created_at: number;
  expires_at: number;
  consumed_at: number | null;
}

export interface AccessTokensTable {
  token_hash: string;
  grant_id: string;
  client_id: string;
  user_id: string;
  scopes: string | null;
  created_at: number;
  expires_at: number;
  revoked_at: number | null;
}

export interface RefreshTokensTable {
  id: string;
  token_hash: string;
  grant_id: string;
  client_id: string;
  user_id: string;
  scopes: string | null;
  parent_id: string | null;
  created_at: number;
  expires_at: number;
  spent_at: number | null;
  successor_box: string | null;
  revoked_at: number | null;
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

export interface Database {
  users: UsersTable;
  sessions: SessionsTable;
  oauth_clients: OAuthClientsTable;
  client_secrets: ClientSecretsTable;
  authorization_requests: AuthorizationRequestsTable;
  grants: GrantsTable;
  authorization_codes: AuthorizationCodesTable;
  access_tokens: AccessTokensTable;
  refresh_tokens: RefreshTokensTable;
  audit_events: AuditEventsTable;
}
