// The jti of a JWT that is spent once (RFC 7519 §4.1.7): a DPoP proof's (RFC 9449 §4.3 point 5)
// and a client assertion's (RFC 7523 §3 point 7). Both replay checks key on it, so both
// accept it by one rule.

/** A jti longer than this is refused: the replay key hashes it, but a JWT spent once stays small. */
export const MAX_JTI_LENGTH = 256;

/** True when jti is a string of 1 to MAX_JTI_LENGTH characters, the only kind a replay check keys on. */
export function isAcceptableJti(jti: unknown): jti is string {
  return typeof jti === 'string' && jti !== '' && jti.length <= MAX_JTI_LENGTH;
}
