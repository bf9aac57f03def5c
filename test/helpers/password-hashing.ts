// The cost of the password hashes the suites make.

/**
 * The suites make thousands of password hashes and logins: at OWASP's argon2id minimum each
 * takes a quarter of the time of the default's, on one core (services/accounts/passwords.ts).
 * A test about the cost itself sets PASSWORD_HASHING.
 */
export const testPasswordHashing = { PASSWORD_HASHING: 'owasp' } as const;

/** The same cost for a service context a suite builds over its database itself. */
export const testServiceOptions = { passwordHashing: testPasswordHashing.PASSWORD_HASHING };
