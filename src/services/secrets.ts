// Client secrets (seed §3, SPEC §2 items 3 and 15): at most 2 active, never fewer than 1,
// shown once, stored as SHA-256 with the last four characters for recognition.
import type { Kysely } from 'kysely';
import { generateToken, hashToken, randomId } from '../oauth/token-format.ts';
import { appendAudit } from '../storage/repositories/audit.ts';
import type { Database } from '../storage/schema.ts';
import type { ServiceContext } from './context.ts';
import { conflict, notFound } from './errors.ts';

export const MAX_ACTIVE_SECRETS = 2; // seed §8

export interface SecretView {
  id: string;
  lastFour: string;
  createdAt: number;
  lastUsedAt: number | null;
}

export async function listSecrets(ctx: { db: Kysely<Database> }, clientId: string): Promise<SecretView[]> {
  const rows = await ctx.db
    .selectFrom('client_secrets')
    .select(['id', 'last_four', 'created_at', 'last_used_at'])
    .where('client_id', '=', clientId)
    .where('removed_at', 'is', null)
    .orderBy('created_at')
    .execute();
  return rows.map((r) => ({ id: r.id, lastFour: r.last_four, createdAt: r.created_at, lastUsedAt: r.last_used_at }));
}

/** Inserts a secret inside the caller's transaction; returns the plain text. */
export async function insertSecret(ctx: ServiceContext, clientId: string, actorId: string | null): Promise<{ id: string; secret: string }> {
  const secret = generateToken('clientSecret');
  const now = ctx.clock();
  const id = randomId();
  await ctx.db
    .insertInto('client_secrets')
    .values({ id, client_id: clientId, secret_hash: hashToken(secret), last_four: secret.slice(-4), created_at: now, last_used_at: null, removed_at: null })
    .execute();
  await appendAudit(ctx.db, { type: 'secret.created', actorId, clientId, data: { secretId: id, lastFour: secret.slice(-4) } }, now);
  return { id, secret };
}

/**
 * Takes the client's row lock for the rest of the transaction, so that two concurrent
 * secret changes of one client are serialized (a portable stand-in for SELECT ... FOR UPDATE).
 */
async function lockClient(db: Kysely<Database>, clientId: string, now: number) {
  const result = await db.updateTable('oauth_clients').set({ updated_at: now }).where('id', '=', clientId).returning(['kind']).executeTakeFirst();
  if (result === undefined) throw notFound(`no client with id ${clientId}`);
  return result.kind;
}

export async function addSecret(ctx: ServiceContext, clientId: string, actorId: string | null): Promise<{ id: string; secret: string }> {
  return ctx.db.transaction().execute(async (trx) => {
    const kind = await lockClient(trx, clientId, ctx.clock());
    if (kind === 'public') throw conflict('public clients have no secrets: they authenticate with PKCE');
    const active = await listSecrets({ db: trx }, clientId);
    if (active.length >= MAX_ACTIVE_SECRETS) {
      throw conflict(`a client may hold at most ${MAX_ACTIVE_SECRETS} active secrets: remove one before adding another`);
    }
    return insertSecret({ ...ctx, db: trx }, clientId, actorId);
  });
}

/** Takes effect at once; the last active secret cannot be removed (seed §3, §7 rule 3). */
export async function removeSecret(ctx: ServiceContext, clientId: string, secretId: string, actorId: string | null): Promise<void> {
  await ctx.db.transaction().execute(async (trx) => {
    const now = ctx.clock();
    await lockClient(trx, clientId, now);
    const active = await listSecrets({ db: trx }, clientId);
    const target = active.find((s) => s.id === secretId);
    if (target === undefined) throw notFound(`client ${clientId} has no active secret with id ${secretId}`);
    if (active.length <= 1) {
      throw conflict('this is the last active secret: a confidential client always keeps one; add a new secret first, then remove this one');
    }
    await trx.updateTable('client_secrets').set({ removed_at: now }).where('id', '=', secretId).execute();
    await appendAudit(trx, { type: 'secret.removed', actorId, clientId, data: { secretId, lastFour: target.lastFour } }, now);
  });
}
