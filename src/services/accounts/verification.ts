// Verifying email addresses and phone numbers (seed §2.3 VERIFIED_RESOURCES_*): a 6-digit
// code, stored only as a hash, valid 10 minutes, 5 attempts, single use.
import { randomInt } from 'node:crypto';
import { hashesEqual, hashToken, randomId } from '../../oauth/token-format.ts';
import { isUniqueViolation } from '../../storage/errors.ts';
import * as repo from '../../storage/repositories/verified-resources.ts';
import type { ResourceKind, VerificationOwner, VerifiedResourceRow } from '../../storage/repositories/verified-resources.ts';
import type { ServiceContext } from '../context.ts';
import { validation } from '../errors.ts';

export const CODE_TTL_MS = 10 * 60_000;
export const MAX_ATTEMPTS = 5;

/** Sends the code to its owner. There is no mail or SMS provider: development delivery logs it. */
export type CodeDelivery = (kind: ResourceKind, to: string, code: string) => void;

// Salted with the row id, so equal codes of two addresses do not share a hash.
const codeHash = (id: string, code: string) => hashToken(`${id}:${code}`);

export interface CodeRequested {
  resource: VerifiedResourceRow;
  codeSent: boolean;
  expiresAt: number | null;
}

export async function requestCode(ctx: ServiceContext, owner: VerificationOwner, kind: ResourceKind, value: string, deliver: CodeDelivery): Promise<CodeRequested> {
  const now = ctx.clock();
  let row = await repo.findResource(ctx.db, owner, kind, value);
  if (row?.verified_at != null) return { resource: row, codeSent: false, expiresAt: null };
  if (row === undefined) {
    row = {
      id: randomId(),
      user_id: 'userId' in owner ? owner.userId : null,
      team_id: 'teamId' in owner ? owner.teamId : null,
      kind,
      value,
      verified_at: null,
      code_hash: null,
      code_expires_at: null,
      attempts: 0,
      created_at: now,
      updated_at: now,
    };
    try {
      await repo.insertResource(ctx.db, row);
    } catch (error) {
      // A parallel request created it first: use that row.
      if (!isUniqueViolation(error)) throw error;
      row = (await repo.findResource(ctx.db, owner, kind, value))!;
    }
  }
  const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
  const expiresAt = now + CODE_TTL_MS;
  await repo.setPendingCode(ctx.db, row.id, codeHash(row.id, code), expiresAt, now);
  deliver(kind, value, code);
  return { resource: row, codeSent: true, expiresAt };
}

export async function verifyCode(ctx: ServiceContext, owner: VerificationOwner, kind: ResourceKind, value: string, code: string): Promise<VerifiedResourceRow> {
  const now = ctx.clock();
  const row = await repo.findResource(ctx.db, owner, kind, value);
  if (row?.verified_at != null && row.code_hash === null) return row;
  if (row === undefined || row.code_hash === null) throw validation('code: no code is pending for this address; request one first', 'code');
  if (row.code_expires_at === null || row.code_expires_at <= now) throw validation('code: has expired; request a new one', 'code');
  if (!(await repo.spendAttempt(ctx.db, row.id, MAX_ATTEMPTS, now))) throw validation('code: too many wrong attempts; request a new one', 'code');
  if (!hashesEqual(codeHash(row.id, code), row.code_hash) || !(await repo.markVerified(ctx.db, row.id, row.code_hash, now))) {
    throw validation('code: is wrong', 'code');
  }
  return { ...row, verified_at: now, code_hash: null, code_expires_at: null };
}
