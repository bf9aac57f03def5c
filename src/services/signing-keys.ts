// `gatehouse keys list|rotate` (docs/operating.md#signing-keys): the ID token signing keys as an
// operator sees them, and their rotation: a new set, the current one retired in the same
// transaction, recorded in the audit log. Every instance signs with the new set once its
// refresh period has passed (SIGNING_KEYS_REFRESH_SECONDS); a retired key stays published
// until every ID token it may have signed has expired (oauth/signing-keys.ts: published).
import { KeySealer, makeSigningKeySet, publishedUntil, type SigningKeysOptions, type SigningKeyType } from '../oauth/signing-keys.ts';
import type { ServiceContext } from './context.ts';
import { conflict } from './errors.ts';

export interface SigningKeyView {
  kid: string;
  kty: SigningKeyType;
  generation: number;
  /** active: signs new ID tokens; published: retired, still at jwks_uri for tokens it signed; expired: no longer published. */
  status: 'active' | 'published' | 'expired';
  createdAt: string;
  retiredAt: string | null;
  /** When a retired key leaves jwks_uri; null while active. */
  publishedUntil: string | null;
}

const iso = (ms: number) => new Date(ms).toISOString();

/** Every key kept, newest set first; no private part, sealed or not. */
export async function listSigningKeys(ctx: ServiceContext, options: SigningKeysOptions): Promise<SigningKeyView[]> {
  const now = ctx.clock();
  return (await ctx.stores.signingKeys.listSigningKeys()).map((k) => {
    const until = publishedUntil(k, options);
    return {
      kid: k.kid,
      kty: k.kty,
      generation: k.generation,
      status: until === null ? 'active' : now < until ? 'published' : 'expired',
      createdAt: iso(k.createdAt),
      retiredAt: k.retiredAt === null ? null : iso(k.retiredAt),
      publishedUntil: until === null ? null : iso(until),
    };
  });
}

/**
 * A new set replaces the active one, in one transaction; returns the new and the retired key
 * ids. `secret`: SIGNING_KEYS_SECRET, which seals the new private parts.
 */
export async function rotateSigningKeys(ctx: ServiceContext, secret: string, actorId: string): Promise<{ created: string[]; retired: string[] }> {
  const sealer = new KeySealer(secret);
  const now = ctx.clock();
  const existing = await ctx.stores.signingKeys.listSigningKeys();
  const generation = Math.max(0, ...existing.map((k) => k.generation)) + 1;
  // Made before the transaction: an RSA key takes a while, and no lock waits on it.
  const keys = await makeSigningKeySet(sealer, generation, now);
  return ctx.stores.transaction(async (tx) => {
    if (!(await tx.signingKeys.addSigningKeys(keys))) throw conflict('another rotation made a new set of keys at the same time: list the keys, and rotate again only if you still mean to');
    await tx.signingKeys.retireSigningKeysBefore(generation, now);
    const retired = existing.filter((k) => k.retiredAt === null).map((k) => k.kid);
    const created = keys.map((k) => k.kid);
    await tx.audit.append({ type: 'signing_keys.rotated', actorId, data: { created: created.join(' '), retired: retired.join(' ') } }, now);
    return { created, retired };
  });
}
