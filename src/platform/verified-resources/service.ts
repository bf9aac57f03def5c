// The verified emails and phone numbers of a user and of a team: listing the proven ones, a
// code sent to an address (limited per caller and per address), and the code brought back.
// An email is kept trimmed and in lower case, so one address is one resource however it was
// typed. How a code reaches its address is the caller's (CodeDelivery): Gatehouse has no mail
// or SMS provider, and the routes log it on a development install.
import { createHash } from 'node:crypto';
import type { PlatformDeps } from '../deps.ts';
import { callerKey, type CodeDelivery, LimitExceeded, Refusal, requestCode, type ResourceKind, type VerificationOwner, type VerifiedResource, verifyCode } from '../authorization-server.ts';
import type { PlatformContext } from '../stores.ts';

export type { CodeDelivery, ResourceKind, VerificationOwner, VerifiedResource } from '../authorization-server.ts';

/** The address as it is kept: an email trimmed and in lower case, a phone number as given (E.164, checked by the schema). */
export const normalizeAddress = (kind: ResourceKind, value: string): string => (kind === 'email' ? value.trim().toLowerCase() : value);

export function listVerified(ctx: PlatformContext, owner: VerificationOwner, kind: ResourceKind, limit: number, offset: number): Promise<VerifiedResource[]> {
  return ctx.stores.verifiedResources.listVerified(owner, kind, limit, offset);
}

/** What a code request did: sent a code, valid until expiresAt, or none, the address being verified already. */
export interface CodeRequestResult {
  /** The address as it is kept. */
  value: string;
  codeSent: boolean;
  expiresAt: number | null;
}

/**
 * docs/rules.md#rate-limits: code requests are limited per IP, and per address of an owner. Each new
 * code restarts the five attempts, so without a limit a caller could buy endless guesses
 * (and fill someone's inbox). The address is hashed: the counter store holds no e-mail.
 */
/** The limits a code request spends. */
export type CodeRequestLimits = { limits: Pick<PlatformDeps['limits'], 'codeRequestsPerIp' | 'codeRequestsPerAddress'> };

async function limitCodeRequests({ limits }: CodeRequestLimits, callerIp: string, owner: VerificationOwner, kind: ResourceKind, value: string): Promise<void> {
  const ownerKey = 'userId' in owner ? `user:${owner.userId}` : `team:${owner.teamId}`;
  const address = createHash('sha256').update(`${ownerKey}|${kind}|${value}`).digest('base64url');
  try {
    await limits.codeRequestsPerIp.take(callerKey(callerIp));
    await limits.codeRequestsPerAddress.take(address);
  } catch (error) {
    if (!(error instanceof LimitExceeded)) throw error;
    throw new Refusal('rate_limited', `too many verification code requests: retry in ${error.retryAfter} seconds`, { 'retry-after': String(error.retryAfter) });
  }
}

/** Sends a code to the owner's address through `deliver`, once the caller (by IP) and the address are within their limits. */
export async function requestVerificationCode(
  ctx: PlatformContext,
  deps: CodeRequestLimits,
  request: { owner: VerificationOwner; kind: ResourceKind; value: string; callerIp: string },
  deliver: CodeDelivery,
): Promise<CodeRequestResult> {
  const { owner, kind, callerIp } = request;
  const value = normalizeAddress(kind, request.value);
  await limitCodeRequests(deps, callerIp, owner, kind, value);
  const result = await requestCode(ctx, owner, kind, value, deliver);
  return { value, codeSent: result.codeSent, expiresAt: result.expiresAt };
}

/** Proves the owner's address with the code sent to it; answers the verified resource. */
export function verifyAddress(ctx: PlatformContext, owner: VerificationOwner, kind: ResourceKind, value: string, code: string): Promise<VerifiedResource> {
  return verifyCode(ctx, owner, kind, normalizeAddress(kind, value), code);
}
