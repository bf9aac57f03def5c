// Passwords are stored as argon2id hashes (RFC 9106), at one of two costs the operator
// chooses with PASSWORD_HASHING (docs/operating.md#settings). A hash names its own
// parameters, so a login checks every stored hash, whatever cost it was made at.
import argon2 from 'argon2';

/**
 * - `rfc9106`: RFC 9106 §4's second recommended option, 64 MiB, 3 passes, 4 lanes (the
 *   default): a few hundred milliseconds of a small machine's cores per login;
 * - `owasp`: the OWASP Password Storage Cheat Sheet's minimum for argon2id, 19 MiB, 2 passes,
 *   1 lane: a quarter of the time on one core, for small machines and for the test suite.
 */
export type PasswordHashing = 'rfc9106' | 'owasp';

const costs: Record<PasswordHashing, { memoryCost: number; timeCost: number; parallelism: number }> = {
  rfc9106: { memoryCost: 65536, timeCost: 3, parallelism: 4 },
  owasp: { memoryCost: 19456, timeCost: 2, parallelism: 1 },
};

export const hashPassword = (password: string, hashing: PasswordHashing): Promise<string> => argon2.hash(password, { type: argon2.argon2id, ...costs[hashing] });

/**
 * What an account made without a password keeps instead of a hash (docs/rules.md#organization-made-accounts):
 * not an argon2 encoding, so no password ever matches it, until an operator sets one.
 */
export const NO_PASSWORD = '!no-password';

/** Whether the password is the one the hash was made of; false for anything that is not a hash. */
export const passwordMatches = (hash: string, password: string): Promise<boolean> => argon2.verify(hash, password).catch(() => false);

// A hash at each cost to check against when the account does not exist, so that the time
// of the answer does not tell which emails are registered.
const decoys = new Map<PasswordHashing, Promise<string>>();

/** Checks the password against a decoy hash of this cost: as long as checking a real one. */
export async function spendDecoyCheck(password: string, hashing: PasswordHashing): Promise<void> {
  let decoy = decoys.get(hashing);
  if (decoy === undefined) decoys.set(hashing, (decoy = hashPassword('decoy-password', hashing)));
  await passwordMatches(await decoy, password);
}
