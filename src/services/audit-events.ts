// The names of every audit event the application writes (docs/rules.md#audit-events): the protocol
// core's own (src/oauth/storage.ts) and those of the services and pages around it.
import type { OAuthAuditEventType } from '../oauth/storage.ts';

export type AuditEventType =
  | OAuthAuditEventType
  | 'client.created'
  | 'client.approved'
  | 'client.rejected'
  | 'client.suspended'
  | 'client.updated'
  | 'client.scopes_changed'
  | 'client.review_reopened'
  | 'client.migrated'
  | 'secret.created'
  | 'secret.removed'
  | 'client.resource_server_changed'
  | 'user.created'
  | 'user.password_reset'
  | 'user.admin_changed'
  | 'user.email_change_requested'
  | 'user.email_changed'
  | 'organization.created'
  | 'team.created'
  | 'membership.added'
  | 'membership.removed'
  | 'invite_link.revoked'
  | 'user.created_by_organization'
  | 'user.deleted_by_organization'
  | 'events_url.changed'
  | 'events_secret.created'
  | 'login.failed'
  | 'identity_provider.added'
  | 'identity_provider.removed'
  | 'identity_link.created'
  | 'identity_link.removed'
  | 'signing_keys.rotated';

