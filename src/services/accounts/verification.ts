// Verifying email addresses and phone numbers (VERIFIED_RESOURCES_* of docs/rules.md#scope-registry): a 6-digit
// code, stored only as a hash, valid 10 minutes, 5 attempts, single use.
import { randomInt } from 'node:crypto';
import { hashesEqual, hashToken } from '../../oauth/token-format.ts';
import type { ServiceContext } from '../context.ts';
import { validation } from '../errors.ts';
import type { ResourceKind, VerificationOwner, VerifiedResource } from './store.ts';

export type { ResourceKind, VerificationOwner, VerifiedResource } from './store.ts';

export const CODE_TTL_MS = 10 * 60_000;
export const MAX_ATTEMPTS = 5;

/** Sends the code to its owner. There is no mail or SMS provider: development delivery logs it. */
export type CodeDelivery = (kind: ResourceKind, to: string, code: string) => void;

// Salted with the row id, so equal codes of two addresses do not share a hash.
const codeHash = (id: string, code: string) => hashToken(`${id}:${code}`);

export interface CodeRequested {
  resource: VerifiedResource;
  codeSent: boolean;
  expiresAt: number | null;
}

/** The owner's resource of this address, created (unverified, no code) when it is new. */
async function findOrCreate(ctx: ServiceContext, owner: VerificationOwner, kind: ResourceKind, value: string, now: number): Promise<VerifiedResource> {
  const store = ctx.stores.verifiedResources;
  const found = await store.find(owner, kind, value);
  if (found !== undefined) return found;
  const resource: VerifiedResource = {
    id: await ctx.stores.ids.next('verified_resources'),
    userId: 'userId' in owner ? owner.userId : null,
    teamId: 'teamId' in owner ? owner.teamId : null,
    kind,
    value,
    verifiedAt: null,
    codeHash: null,
    codeExpiresAt: null,
    attempts: 0,
    createdAt: now,
    updatedAt: now,
  };
  // A parallel request created it first: use that row.
  return (await store.insert(resource)) ? resource : (await store.find(owner, kind, value))!;
}

export async function requestCode(ctx: ServiceContext, owner: VerificationOwner, kind: ResourceKind, value: string, deliver: CodeDelivery): Promise<CodeRequested> {
  const now = ctx.clock();
  const resource = await findOrCreate(ctx, owner, kind, value, now);
  if (resource.verifiedAt !== null) return { resource, codeSent: false, expiresAt: null };
  const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
  const expiresAt = now + CODE_TTL_MS;
  await ctx.stores.verifiedResources.setPendingCode(resource.id, codeHash(resource.id, code), expiresAt, now);
  deliver(kind, value, code);
  return { resource, codeSent: true, expiresAt };
}

export async function verifyCode(ctx: ServiceContext, owner: VerificationOwner, kind: ResourceKind, value: string, code: string): Promise<VerifiedResource> {
  const now = ctx.clock();
  const store = ctx.stores.verifiedResources;
  const resource = await store.find(owner, kind, value);
  if (resource?.verifiedAt != null && resource.codeHash === null) return resource;
  if (resource === undefined || resource.codeHash === null) throw validation('code: no code is pending for this address; request one first', 'code');
  if (resource.codeExpiresAt === null || resource.codeExpiresAt <= now) throw validation('code: has expired; request a new one', 'code');
  if (!(await store.spendAttempt(resource.id, MAX_ATTEMPTS, now))) throw validation('code: too many wrong attempts; request a new one', 'code');
  if (!hashesEqual(codeHash(resource.id, code), resource.codeHash) || !(await store.markVerified(resource.id, resource.codeHash, now))) {
    throw validation('code: is wrong', 'code');
  }
  return { ...resource, verifiedAt: now, codeHash: null, codeExpiresAt: null };
}
