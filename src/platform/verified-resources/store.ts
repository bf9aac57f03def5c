// Verified emails and phone numbers of a user or a team, as the /v2 lists show them. Codes
// are requested and checked by services/verification.ts.

export type VerificationOwner = { userId: string } | { teamId: string };
export type ResourceKind = 'email' | 'phone';

export interface VerifiedResource {
  id: string;
  kind: ResourceKind;
  /** The address: a lower-case email or an E.164 number. */
  value: string;
  /** When it was proven; null while a code is pending. */
  verifiedAt: number | null;
}

export interface VerifiedResourceStore {
  /** The owner's verified (not merely pending) resources of that kind, earliest verified first. */
  listVerified(owner: VerificationOwner, kind: ResourceKind, limit: number, offset: number): Promise<VerifiedResource[]>;
}
