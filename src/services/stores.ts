// The stores the application services reach the database through (ARCHITECTURE.md). Each
// area declares its own store interface beside its services, with camelCase records and the
// contract of every method; this interface gathers them, so that one transaction can span
// areas. src/storage/stores implements it; app.ts and cli/runtime.ts wire it.
import type { NoticeStore, SessionStore, UserStore, VerifiedResourceStore } from './accounts/store.ts';
import type { AuditLogReader } from './audit-log.ts';
import type { AuditStore } from './audit.ts';
import type { IdSeriesStore } from './ids.ts';
import type { IdentityProviderStore } from './identity-providers/store.ts';
import type { ClientStore, MetadataHostStore } from './clients/store.ts';
import type { RetentionStore } from './retention/store.ts';
import type { InvitationStore, InviteLinkStore, TeamStore } from './teams/store.ts';
import type { WebhookDeliveryStore } from './webhooks/store.ts';
import type { WebhookStore } from './webhooks/subscriptions.ts';
import type { SigningKeyStore } from '../oauth/signing-keys.ts';

export interface ServiceStores {
  /** docs/rules.md#numbered-ids: the numbers of what the platform names by a number. */
  ids: IdSeriesStore;
  clients: ClientStore;
  metadataHosts: MetadataHostStore;
  users: UserStore;
  sessions: SessionStore;
  notices: NoticeStore;
  verifiedResources: VerifiedResourceStore;
  audit: AuditStore;
  auditLog: AuditLogReader;
  teams: TeamStore;
  invitations: InvitationStore;
  /** docs/rules.md#invite-links: the links a team admin shares to let people join. */
  inviteLinks: InviteLinkStore;
  webhooks: WebhookStore;
  webhookDeliveries: WebhookDeliveryStore;
  retention: RetentionStore;
  /** docs/operating.md#signing-keys: the keys ID tokens are signed with. */
  signingKeys: SigningKeyStore;
  /** docs/integrating.md#enterprise-managed-agents: the identity providers organizations trust, and their subjects' links. */
  identityProviders: IdentityProviderStore;
  /**
   * Runs fn with every store bound to one transaction: all of fn's writes land, or none.
   * Inside a transaction already, fn joins it.
   */
  transaction<T>(fn: (tx: ServiceStores) => Promise<T>): Promise<T>;
}
