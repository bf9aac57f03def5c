// docs/rules.md#refresh-rotation: the successor of a spent refresh token is kept for the replay window,
// encrypted under a key derived from the spent token itself, so the database never holds
// a usable token in plain text and only a holder of the spent token can open it.
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

export interface TokenPair {
  accessToken: string;
  refreshToken: string;
  /** RFC 9449 §6: the thumbprint the access token is bound to, so a replayed answer says DPoP again. */
  dpopJkt?: string | null;
}

function keyFor(spentToken: string): Buffer {
  return Buffer.from(hkdfSync('sha256', spentToken, 'gatehouse', 'refresh-successor-v1', 32));
}

export function sealSuccessor(spentToken: string, pair: TokenPair): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', keyFor(spentToken), iv);
  const body = Buffer.concat([cipher.update([pair.accessToken, pair.refreshToken, ...(pair.dpopJkt ? [pair.dpopJkt] : [])].join(' '), 'utf8'), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url');
}

export function openSuccessor(spentToken: string, box: string): TokenPair | undefined {
  try {
    const raw = Buffer.from(box, 'base64url');
    const decipher = createDecipheriv('aes-256-gcm', keyFor(spentToken), raw.subarray(0, 12));
    decipher.setAuthTag(raw.subarray(12, 28));
    const text = Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
    const [accessToken, refreshToken, dpopJkt] = text.split(' ');
    if (!accessToken || !refreshToken) return undefined;
    return dpopJkt ? { accessToken, refreshToken, dpopJkt } : { accessToken, refreshToken };
  } catch {
    return undefined;
  }
}
