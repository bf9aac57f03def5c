// The keys ID tokens are signed with (docs/operating.md#signing-keys): kept in the database so
// that every instance signs alike, the private parts sealed under the operator's
// SIGNING_KEYS_SECRET (a JWE, RFC 7516, direct A256GCM), published at jwks_uri (OpenID Connect
// Core §10.1) without them. A set holds one key of each type, so that every algorithm a
// client may register has a key; a rotation retires the set and makes a new one. Every JOSE
// operation is jose's.
import { hkdfSync } from 'node:crypto';
import { calculateJwkThumbprint, CompactEncrypt, compactDecrypt, exportJWK, generateKeyPair, importJWK, type CryptoKey, type JWK } from 'jose';

/** OpenID Connect Discovery §3 `id_token_signing_alg_values_supported`: asymmetric only, never `none`. */
export const ID_TOKEN_ALGORITHMS = ['RS256', 'PS256', 'ES256', 'EdDSA'] as const;
export type IdTokenAlgorithm = (typeof ID_TOKEN_ALGORITHMS)[number];

export type SigningKeyType = 'RSA' | 'EC' | 'OKP';

/** The key type each algorithm signs with, and how a key of that type is made (RSA 2048, P-256, Ed25519). */
const KEY_TYPES: Record<SigningKeyType, { generateAs: IdTokenAlgorithm; options: { modulusLength?: number; crv?: string } }> = {
  RSA: { generateAs: 'RS256', options: { modulusLength: 2048 } },
  EC: { generateAs: 'ES256', options: {} },
  OKP: { generateAs: 'EdDSA', options: { crv: 'Ed25519' } },
};

export function keyTypeOf(alg: IdTokenAlgorithm): SigningKeyType {
  return alg === 'ES256' ? 'EC' : alg === 'EdDSA' ? 'OKP' : 'RSA';
}

export function isIdTokenAlgorithm(value: unknown): value is IdTokenAlgorithm {
  return typeof value === 'string' && (ID_TOKEN_ALGORITHMS as readonly string[]).includes(value);
}

export interface SigningKeyRecord {
  /** The RFC 7638 thumbprint of the public key: the `kid` of the tokens it signs. */
  kid: string;
  /** The set it belongs to: 1 for the first, one more per rotation. */
  generation: number;
  kty: SigningKeyType;
  /** The public JWK, with kid and `use: sig`: what jwks_uri publishes. */
  publicJwk: JWK;
  /** The private JWK sealed by KeySealer: never stored, logged or answered in clear. */
  sealedPrivateJwk: string;
  createdAt: number;
  /** When a rotation retired it; null while it signs. */
  retiredAt: number | null;
}

/** Storage contract of the signing keys; src/storage implements it on `signing_keys`. */
export interface SigningKeyStore {
  /** Every key kept, newest first. */
  listSigningKeys(): Promise<SigningKeyRecord[]>;
  /**
   * Adds the set `keys` (all of one generation) unless a set of that generation exists:
   * whether it did. Of two writers of one generation (two instances making the first set,
   * two rotations at once) exactly one does; the other's waits for it, then adds nothing.
   */
  addSigningKeys(keys: readonly SigningKeyRecord[]): Promise<boolean>;
  /** Retires at `at` every active key of a generation before `generation`. */
  retireSigningKeysBefore(generation: number, at: number): Promise<void>;
}

/** The secret could not open a stored key: another SIGNING_KEYS_SECRET sealed it, or the row was changed. */
export class SigningKeyUnreadable extends Error {
  constructor(kid: string) {
    super(`signing key ${kid} cannot be opened with this SIGNING_KEYS_SECRET: every instance and the gatehouse command must use the secret the keys were made with (docs/operating.md#signing-keys)`);
  }
}

/** Seals private JWKs under a key derived from the operator's secret for this purpose alone. */
export class KeySealer {
  private readonly key: Uint8Array;

  constructor(secret: string) {
    this.key = new Uint8Array(hkdfSync('sha256', secret, '', 'gatehouse: signing keys', 32));
  }

  /** The kid is in the protected header, which A256GCM authenticates: a sealed key moved to another row does not open. */
  seal(kid: string, privateJwk: JWK): Promise<string> {
    return new CompactEncrypt(new TextEncoder().encode(JSON.stringify(privateJwk))).setProtectedHeader({ alg: 'dir', enc: 'A256GCM', kid }).encrypt(this.key);
  }

  async open(kid: string, sealed: string): Promise<JWK> {
    try {
      const { plaintext, protectedHeader } = await compactDecrypt(sealed, this.key, { keyManagementAlgorithms: ['dir'], contentEncryptionAlgorithms: ['A256GCM'] });
      if (protectedHeader.kid !== kid) throw new Error('kid');
      return JSON.parse(new TextDecoder().decode(plaintext)) as JWK;
    } catch {
      throw new SigningKeyUnreadable(kid);
    }
  }
}

/** A new set of `generation`: one key of each type, made at `now`, private parts sealed. */
export async function makeSigningKeySet(sealer: KeySealer, generation: number, now: number): Promise<SigningKeyRecord[]> {
  const records: SigningKeyRecord[] = [];
  for (const [kty, { generateAs, options }] of Object.entries(KEY_TYPES) as Array<[SigningKeyType, (typeof KEY_TYPES)[SigningKeyType]]>) {
    const { publicKey, privateKey } = await generateKeyPair(generateAs, { ...options, extractable: true });
    const publicJwk = await exportJWK(publicKey);
    const kid = await calculateJwkThumbprint(publicJwk);
    // No `alg` member: the RSA key signs RS256 and PS256 alike, and a verifier picks by kid.
    records.push({ kid, generation, kty, publicJwk: { ...publicJwk, kid, use: 'sig' }, sealedPrivateJwk: await sealer.seal(kid, await exportJWK(privateKey)), createdAt: now, retiredAt: null });
  }
  return records;
}

export interface SigningKeysOptions {
  /**
   * How long an instance keeps the key list it read (SIGNING_KEYS_REFRESH_SECONDS): after a
   * rotation, every instance signs with the new keys within this time.
   */
  refreshSeconds: number;
  /** How long an ID token lives: a retired key stays published until the last token it signed has expired. */
  idTokenTtlSeconds: number;
}

/** One instance's view of the keys: read from the store at most once per refresh period. */
export class SigningKeys {
  private loaded: { at: number; keys: SigningKeyRecord[] } | undefined;
  private readonly opened = new Map<string, Promise<CryptoKey | Uint8Array>>();

  constructor(
    private readonly store: SigningKeyStore,
    private readonly sealer: KeySealer,
    private readonly clock: () => number,
    readonly options: SigningKeysOptions,
  ) {}

  /** The keys as last read, read again once the refresh period has passed. */
  private async keys(): Promise<SigningKeyRecord[]> {
    const now = this.clock();
    if (this.loaded === undefined || now - this.loaded.at >= this.options.refreshSeconds * 1000 || now < this.loaded.at) {
      this.loaded = { at: now, keys: await this.store.listSigningKeys() };
    }
    return this.loaded.keys;
  }

  /** A first set when there is none (the first start); whether one was made. */
  async ensureFirst(): Promise<boolean> {
    if ((await this.store.listSigningKeys()).length > 0) return false;
    const made = await this.store.addSigningKeys(await makeSigningKeySet(this.sealer, 1, this.clock()));
    this.loaded = undefined;
    return made;
  }

  /** The newest active key for `alg`, opened: what an ID token is signed with. */
  async signer(alg: IdTokenAlgorithm): Promise<{ kid: string; key: CryptoKey | Uint8Array }> {
    const kty = keyTypeOf(alg);
    let key = (await this.keys()).find((k) => k.retiredAt === null && k.kty === kty);
    if (key === undefined) {
      // No key yet (a server started before its first set was written): one is made, as at a first start.
      await this.ensureFirst();
      key = (await this.keys()).find((k) => k.retiredAt === null && k.kty === kty);
      if (key === undefined) throw new Error(`no active ${kty} signing key`);
    }
    const cacheKey = `${key.kid} ${alg}`;
    let opened = this.opened.get(cacheKey);
    if (opened === undefined) {
      const found = key;
      opened = this.sealer.open(found.kid, found.sealedPrivateJwk).then((jwk) => importJWK(jwk, alg));
      // A failure is not kept: the operator may fix the secret and restart, or the row.
      opened.catch(() => this.opened.delete(cacheKey));
      this.opened.set(cacheKey, opened);
    }
    return { kid: key.kid, key: await opened };
  }

  /**
   * jwks_uri's keys (OpenID Connect Core §10.1.1): the active ones, and each retired one until
   * every token it may have signed has expired: an instance signs with it for up to a refresh
   * period after the rotation, and the token lives its lifetime after that.
   */
  async published(): Promise<JWK[]> {
    const now = this.clock();
    const keep = (this.options.refreshSeconds + this.options.idTokenTtlSeconds) * 1000;
    return (await this.keys()).filter((k) => k.retiredAt === null || now < k.retiredAt + keep).map((k) => k.publicJwk);
  }
}

/** When a retired key stops being published (published() keeps it until then). */
export function publishedUntil(key: Pick<SigningKeyRecord, 'retiredAt'>, options: SigningKeysOptions): number | null {
  return key.retiredAt === null ? null : key.retiredAt + (options.refreshSeconds + options.idTokenTtlSeconds) * 1000;
}
