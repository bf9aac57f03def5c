// The stores of every area of both wings over one Kysely database (or transaction), and the
// context built on them: the one place where the services and the platform meet storage.
import type { Kysely } from 'kysely';
import type { PlatformContext, PlatformStores } from '../../platform/stores.ts';
import type { Database } from '../schema.ts';
import type { PasswordHashing } from '../../services/accounts/passwords.ts';
import { createNoticeStore, createSessionStore, createUserStore } from './accounts.ts';
import { createAuditLogReader, createAuditStore } from './audit.ts';
import { createBookingStore } from './platform/bookings.ts';
import { createClientStore } from './clients.ts';
import { createIdSeriesStore } from './ids.ts';
import { createIdentityProviderStore } from './identity-providers.ts';
import { createMetadataHostStore } from './metadata-hosts.ts';
import { createPlatformStores } from './platform/index.ts';
import { createRetentionStore } from './retention.ts';
import { createInviteLinkStore } from './invite-links.ts';
import { createInvitationStore, createTeamStore } from './teams.ts';
import { createVerifiedResourceStore } from './verified-resources.ts';
import { createWebhookDeliveryStore } from './webhook-deliveries.ts';
import { createWebhookStore } from './webhooks.ts';
import { inTransaction } from '../transaction.ts';
import { createSigningKeyStore } from './signing-keys.ts';

export function createServiceStores(db: Kysely<Database>): PlatformStores {
  return {
    ids: createIdSeriesStore(db),
    clients: createClientStore(db),
    metadataHosts: createMetadataHostStore(db),
    users: createUserStore(db),
    sessions: createSessionStore(db),
    notices: createNoticeStore(db),
    verifiedResources: createVerifiedResourceStore(db),
    audit: createAuditStore(db),
    auditLog: createAuditLogReader(db),
    teams: createTeamStore(db),
    invitations: createInvitationStore(db),
    inviteLinks: createInviteLinkStore(db),
    bookings: createBookingStore(db),
    api: createPlatformStores(db),
    webhooks: createWebhookStore(db),
    webhookDeliveries: createWebhookDeliveryStore(db),
    retention: createRetentionStore(db),
    signingKeys: createSigningKeyStore(db),
    identityProviders: createIdentityProviderStore(db),
    transaction: (fn) => inTransaction(db, (trx) => fn(createServiceStores(trx))),
  };
}

export function createServiceContext(db: Kysely<Database>, clock: () => number, options: { passwordHashing?: PasswordHashing } = {}): PlatformContext {
  return { stores: createServiceStores(db), clock, ...options };
}
