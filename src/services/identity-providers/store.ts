// The store of the identity providers organizations trust and the links of their subjects to
// accounts (docs/integrating.md#enterprise-managed-agents), as the operator and the
// organization's owner manage them. The token endpoint reads the same tables through the
// core's own port (src/oauth/identity-assertion.ts).
import type { TrustedIdentityProvider } from '../../oauth/identity-assertion.ts';

/** An identity provider one organization trusts to issue ID-JAGs for its members: what the token endpoint reads of it, and who added it when. */
export interface IdentityProvider extends TrustedIdentityProvider {
  createdAt: number;
  /** A user id or CLI_OPERATOR. */
  createdBy: string;
}

/** An identity provider's subject, linked to an account. */
export interface IdentityLink {
  issuer: string;
  subject: string;
  userId: string;
  createdAt: number;
  /** CLI_OPERATOR when linked by hand; null when the first ID-JAG linked it by its e-mail. */
  createdBy: string | null;
}

/** A grant an identity provider made, as its revocation names it. */
export interface RevokedGrant {
  id: string;
  clientId: string;
  userId: string;
}

/** An active grant an identity provider made, as the organization's owner sees it. */
export interface IdentityProviderGrant {
  grantId: string;
  clientId: string;
  clientName: string;
  userId: string;
  userName: string;
  userEmail: string;
  /** Registry order. */
  scopes: string[];
  createdAt: number;
  /** When its newest access token still stored was issued; null when none is. */
  lastTokenAt: number | null;
}

export interface IdentityProviderStore {
  /** Inserts it. False, writing nothing, when the organization already trusts that issuer. */
  insert(provider: IdentityProvider): Promise<boolean>;
  /** The organization's identity providers, oldest first. */
  listOfOrganization(organizationId: string): Promise<IdentityProvider[]>;
  /** The organization's identity provider of this id; undefined when there is none. */
  find(organizationId: string, id: string): Promise<IdentityProvider | undefined>;
  /**
   * Within a transaction: holds the identity provider's row until the transaction ends, as a
   * token request holds it (IdentityAssertionStore.holdTrust), so that a grant being made for it
   * is committed before what follows reads its grants. False when there is none.
   */
  hold(id: string): Promise<boolean>;
  /** Deletes it; false when there was none. Its grants stay, for revokeGrantsOf. */
  delete(id: string): Promise<boolean>;
  /**
   * Revokes the active grants the identity provider made (of one user and of one client, when
   * `of` names them), and every token issued under them; returns the grants it revoked. Several
   * writes: call it in a transaction.
   */
  revokeGrantsOf(identityProviderId: string, at: number, of?: { userId?: string; clientId?: string }): Promise<RevokedGrant[]>;
  /**
   * The active grants the identity provider made, oldest first, each with its client's name, its
   * user's name and e-mail, and when a token was last issued under it (null when none is still
   * stored): who got tokens for whom (docs/integrating.md#enterprise-managed-agents).
   */
  listActiveGrants(identityProviderId: string): Promise<IdentityProviderGrant[]>;
  /** The link of the issuer's subject; undefined when none. */
  findLink(issuer: string, subject: string): Promise<IdentityLink | undefined>;
  /** Inserts the link. False, writing nothing, when the subject is linked already. */
  insertLink(link: IdentityLink): Promise<boolean>;
  /** Deletes the link; false when there was none. */
  deleteLink(issuer: string, subject: string): Promise<boolean>;
}
