// What the protocol core needs from the outside world, passed in explicitly.
import type { ClientMetadataDocuments } from './client-metadata.ts';
import type { DpopNonces, DpopProofStore } from './dpop.ts';
import type { OAuthEvents } from './events.ts';
import type { IdentityAssertions } from './identity-assertion.ts';
import type { ProtectedResources } from './resources.ts';
import type { SigningKeys } from './signing-keys.ts';
import type { ClientRecord, OAuthStore } from './storage.ts';

export interface OAuthContext {
  store: OAuthStore;
  /** Milliseconds since the epoch; injectable so tests can move time. */
  clock: () => number;
  /** RFC 9207 `iss` and RFC 8414 issuer. */
  issuer: string;
  ttl: { authCode: number; accessToken: number; refreshIdle: number; refreshReuseWindow: number };
  /** RFC 8707: the resources tokens may be bound to (docs/rules.md#resource-indicators). */
  resources: ProtectedResources;
  /**
   * docs/integrating.md#connect-an-ai-agent-mcp: URL client ids; absent when CIMD_POLICY=off, and then the URL clients made
   * before are refused at every use (client-metadata.ts: documentClientRefusal).
   */
  clientMetadata?: ClientMetadataDocuments;
  /**
   * SECURITY.md: whether nobody who signed in registered this client: a metadata-document
   * client or a dynamically registered one (RFC 7591). Absent: there are none.
   */
  isSelfRegistered?: (client: ClientRecord) => Promise<boolean>;
  /**
   * PAR_POLICY (docs/rules.md#pushed-authorization): `required` refuses every authorization
   * request that does not come through the PAR endpoint (RFC 9126 §5). Absent: optional.
   */
  pushedAuthorization?: { required: boolean };
  /**
   * RFC 9449 (docs/rules.md#dpop): where proofs are spent once, the nonces every instance
   * accepts, and the token endpoint's URL, which a proof sent to it must name in htu.
   */
  dpop: { proofs: DpopProofStore; nonces: DpopNonces; tokenEndpoint: string };
  /** OpenID Connect Core §10.1: the keys ID tokens are signed with (docs/operating.md#signing-keys). */
  signingKeys: SigningKeys;
  /**
   * docs/integrating.md#enterprise-managed-agents: the identity providers organizations trust,
   * their keys and the accounts their subjects are, for the JWT bearer grant with an ID-JAG
   * (grants/jwt-bearer.ts). Absent: that grant is refused.
   */
  identityAssertions?: IdentityAssertions;
  /** Told of each audit event the core wrote, once committed (events.ts). Absent: nobody counts them. */
  events?: OAuthEvents;
}
