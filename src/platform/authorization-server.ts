// The platform's one door to the authorization server. Everything the platform wing uses of
// the other wing is named here and nowhere else: lint forbids every other file of
// src/platform to import src/oauth, src/services or src/http (eslint.config.js), so this list
// is the whole contract between the two wings (ARCHITECTURE.md, "The two wings").

// The bearer check: a token's principal, its audience, and its scopes (RFC 6750, RFC 8707).
export { checkAccessRecord, checkSender, parseBearer, type AccessPrincipal, type Audience, type PresentedProof, type SenderRefusal } from '../oauth/bearer.ts';
// DPoP (RFC 9449 §7.1): the algorithms a resource's challenge names.
export { DPOP_ALGORITHMS } from '../oauth/dpop.ts';
export type { AccessTokenWithClient } from '../oauth/storage.ts';
export { familyTitles, grantSatisfies, scopeRegistry, type ScopeFamily } from '../oauth/scopes.ts';
export { API_RESOURCE_PATH, AUTHORIZE_PATH, MCP_PATH, resourceMetadataUrl, TOKEN_PATH } from '../http/oauth/paths.ts';
// Which web pages' origins may call /mcp: one decision, which CORS follows too.
export type { McpOrigins } from '../http/cross-origin.ts';

// Random ids and hashed secrets, made the way the core makes its tokens.
export { generateToken, hashesEqual, hashToken, isWellFormed, randomId } from '../oauth/token-format.ts';
// Where a redirect URI may use http (docs/rules.md#redirect-uris), and how a redirect gets its parameters.
export { buildRedirect, isLoopbackHost } from '../oauth/redirect-uri.ts';

// The stores and transaction of the authorization server's services, which the platform's extend.
export type { ServiceContext } from '../services/context.ts';
export type { ServiceStores } from '../services/stores.ts';

// Accounts: profiles and proven emails and phone numbers.
export type { ProfileChanges, ResourceKind, User, VerificationOwner, VerifiedResource } from '../services/accounts/store.ts';
export { requestCode, verifyCode, type CodeDelivery } from '../services/accounts/verification.ts';
export { requestEmailChange } from '../services/accounts/email-change.ts';

// Teams, organizations and the membership rules (invitations; an owner is always kept).
export type { Member, MembershipTarget, Role, Team } from '../services/teams/store.ts';
export { createTeam, isAdmin, keepingAnOwner, removeMember, updateTeamProfile } from '../services/teams/teams.ts';
export { inviteMember } from '../services/teams/invitations.ts';
export { createInviteLink } from '../services/teams/invite-links.ts';
export { addOrganizationAccountToTeam, createOrganizationAccount, deleteOrganizationUser } from '../services/teams/organization-accounts.ts';

// Webhooks: subscriptions, the outbox and signing.
export { publishEvent } from '../services/webhooks/outbox.ts';
export { newSigningSecret } from '../services/webhooks/signing.ts';
export type { Delivery, WebhookDeliveryStore } from '../services/webhooks/store.ts';
export type { Webhook, WebhookChanges, WebhookOwner } from '../services/webhooks/subscriptions.ts';

// Rules of input the whole product shares: outbound URLs, one-line names, time zones.
export { checkOutboundUrl, type OutboundPolicy } from '../services/outbound-url.ts';
export { hasControlCharacters, ONE_LINE } from '../services/names.ts';
export { isTimeZone } from '../services/time-zones.ts';

// The refusals the services raise, and what the platform's routes share with the OAuth
// endpoints over HTTP: repeated JSON keys, rate limits.
export { conflict, notFound, validation } from '../services/errors.ts';
export { refuseRepeatedJsonKeys, RepeatedJsonKeyError } from '../http/json-body.ts';
export { callerKey, LimitExceeded, type RateLimits } from '../http/rate-limits.ts';

// The API reference page's assets and content security policy, shared with the pages.
export { assets } from '../http/assets.ts';

// The one error model (http/errors.ts): the platform's envelope and MCP errors render its table.
export { apiErrorBody, errorTable, Refusal, type ApiErrorCode } from '../http/errors.ts';
export { failure, failureOf, type Failure } from '../http/failure.ts';
export { pageDirectives, policyHeader } from '../http/security-headers.ts';
