// Client secrets (docs/rules.md#secret-rotation, docs/rules.md#client-secrets): at most 2 active, never fewer than 1,
// shown once, stored as SHA-256 with the last four characters for recognition.
import { generateToken, hashToken, randomId } from '../../oauth/token-format.ts';
import type { ServiceContext } from '../context.ts';
import { conflict, notFound } from '../errors.ts';
import type { ServiceStores } from '../stores.ts';
import type { StoredSecret } from './store.ts';
import { claimClient } from './version.ts';

export const MAX_ACTIVE_SECRETS = 2; // docs/rules.md#secret-rotation

export type SecretView = StoredSecret;

export async function listSecrets(ctx: { stores: ServiceStores }, clientId: string): Promise<SecretView[]> {
  return ctx.stores.clients.listSecrets(clientId);
}

/** Inserts a secret inside the caller's transaction (the stores given); returns the plain text. */
export async function insertSecret(stores: ServiceStores, now: number, clientId: string, actorId: string | null): Promise<{ id: string; secret: string }> {
  const secret = generateToken('clientSecret');
  const id = randomId();
  await stores.clients.insertSecret({ id, clientId, hash: hashToken(secret), lastFour: secret.slice(-4), createdAt: now });
  await stores.audit.append({ type: 'secret.created', actorId, clientId, data: { secretId: id, lastFour: secret.slice(-4) } }, now);
  return { id, secret };
}

/**
 * docs/rules.md#secret-rotation: a page's "Add a secret" form carries the secrets it showed, and adds
 * one only while they are still the client's active ones: the same form sent twice (a double
 * click) adds one, and the second is told which one the first added. Decided under the
 * client's row lock, which the two requests take in turn. Undefined while they are the same.
 */
function changedSince(active: readonly StoredSecret[], shown: readonly string[]) {
  if (active.length === shown.length && active.every((s) => shown.includes(s.id))) return undefined;
  // A form that names no secret comes from no page of a confidential client, which always has one.
  const added = shown.length === 0 ? undefined : active.filter((s) => !shown.includes(s.id)).sort((a, b) => b.createdAt - a.createdAt)[0];
  return conflict(
    added !== undefined
      ? `the secret ending in …${added.lastFour} was added after this page was shown (this form may have been sent twice), so no other was added: its value was shown once, when it was made; if nobody copied it, remove it and add another`
      : 'the secrets changed since this page was shown, so none was added: check them below, and add one again if you still need it',
    'secrets',
  );
}

/**
 * Adds a secret and returns it, shown this once. `options.shown`, from a page's form, is the
 * ids of the active secrets the page showed (changedSince); the CLI gives none.
 */
export async function addSecret(ctx: ServiceContext, clientId: string, actorId: string | null, options: { shown?: readonly string[] } = {}): Promise<{ id: string; secret: string }> {
  return ctx.stores.transaction(async (tx) => {
    const now = ctx.clock();
    // Two concurrent secret changes of one client are serialized by the client's row lock.
    const { kind } = await claimClient(tx, clientId, now);
    if (kind === 'public') throw conflict('public clients have no secrets: they authenticate with PKCE');
    const active = await tx.clients.listSecrets(clientId);
    const changed = options.shown === undefined ? undefined : changedSince(active, options.shown);
    if (changed !== undefined) throw changed;
    if (active.length >= MAX_ACTIVE_SECRETS) {
      throw conflict(`a client may hold at most ${MAX_ACTIVE_SECRETS} active secrets: remove one before adding another`);
    }
    return insertSecret(tx, ctx.clock(), clientId, actorId);
  });
}

/** Takes effect at once; the last active secret cannot be removed (docs/rules.md#secret-rotation). */
export async function removeSecret(ctx: ServiceContext, clientId: string, secretId: string, actorId: string | null): Promise<void> {
  await ctx.stores.transaction(async (tx) => {
    const now = ctx.clock();
    await claimClient(tx, clientId, now);
    const active = await tx.clients.listSecrets(clientId);
    const target = active.find((s) => s.id === secretId);
    if (target === undefined) throw notFound(`client ${clientId} has no active secret with id ${secretId}`);
    if (active.length <= 1) {
      throw conflict('this is the last active secret: a confidential client always keeps one; add a new secret first, then remove this one');
    }
    await tx.clients.removeSecret(secretId, now);
    await tx.audit.append({ type: 'secret.removed', actorId, clientId, data: { secretId, lastFour: target.lastFour } }, now);
  });
}

/**
 * A new secret that replaces every other at once, in one step (for `gatehouse demo
 * --reset-secret`, whose printed secret was lost): the client is never without one.
 */
export async function replaceSecrets(ctx: ServiceContext, clientId: string, actorId: string | null): Promise<{ id: string; secret: string }> {
  return ctx.stores.transaction(async (tx) => {
    const now = ctx.clock();
    const { kind } = await claimClient(tx, clientId, now);
    if (kind === 'public') throw conflict('public clients have no secrets: they authenticate with PKCE');
    for (const old of await tx.clients.listSecrets(clientId)) {
      await tx.clients.removeSecret(old.id, now);
      await tx.audit.append({ type: 'secret.removed', actorId, clientId, data: { secretId: old.id, lastFour: old.lastFour } }, now);
    }
    return insertSecret(tx, now, clientId, actorId);
  });
}
