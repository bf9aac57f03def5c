// Password hashes (services/accounts/passwords.ts): argon2id at the cost PASSWORD_HASHING
// names, and a login checks any stored hash, whatever cost it was made at. On SQLite
// :memory: through the real adapter.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/index.ts';
import { checkPassword, createUser, resetPassword } from '../../src/services/accounts/users.ts';
import { openDatabase, type DatabaseHandle } from '../../src/storage/database.ts';
import { migrateToLatest } from '../../src/storage/migrator.ts';
import { createServiceContext } from '../../src/storage/stores/index.ts';

describe('password hashing', () => {
  let database: DatabaseHandle;
  beforeAll(async () => {
    database = openDatabase('sqlite::memory:');
    await migrateToLatest(database);
  });
  afterAll(async () => database.close());

  const context = (passwordHashing?: 'rfc9106' | 'owasp') => createServiceContext(database.db, Date.now, passwordHashing === undefined ? {} : { passwordHashing });
  const storedHash = async (email: string) => (await context().stores.users.findByEmail(email))!.passwordHash;

  it('is RFC 9106 §4’s second option by default (64 MiB, 3 passes, 4 lanes), and PASSWORD_HASHING defaults to it', async () => {
    await createUser(context(), { email: 'default@example.com', name: 'Default', password: 'default-password' });
    expect(await storedHash('default@example.com')).toMatch(/^\$argon2id\$v=19\$m=65536,p=4,t=3\$/);
    expect(loadConfig({}).passwordHashing).toBe('rfc9106');
  });

  it('is OWASP’s argon2id minimum with PASSWORD_HASHING=owasp (19 MiB, 2 passes, 1 lane), for new users and reset passwords', async () => {
    const owasp = context(loadConfig({ PASSWORD_HASHING: 'owasp' }).passwordHashing);
    await createUser(owasp, { email: 'small@example.com', name: 'Small', password: 'small-password' });
    expect(await storedHash('small@example.com')).toMatch(/^\$argon2id\$v=19\$m=19456,p=1,t=2\$/);
    await resetPassword(owasp, 'default@example.com', 'another-password', null);
    expect(await storedHash('default@example.com')).toMatch(/^\$argon2id\$v=19\$m=19456,p=1,t=2\$/);
  });

  it('checks a stored hash whatever cost it was made at: changing the setting locks nobody out', async () => {
    await createUser(context('rfc9106'), { email: 'before@example.com', name: 'Before', password: 'before-password' });
    const afterTheChange = context('owasp');
    expect((await checkPassword(afterTheChange, 'before@example.com', 'before-password')).ok).toBe(true);
    expect((await checkPassword(afterTheChange, 'before@example.com', 'wrong-password')).ok).toBe(false);
    expect(await checkPassword(afterTheChange, 'nobody@example.com', 'before-password')).toEqual({ ok: false, user: undefined });
  });

  it('refuses an unknown PASSWORD_HASHING at start, naming the setting', () => {
    expect(() => loadConfig({ PASSWORD_HASHING: 'md5' })).toThrow(/PASSWORD_HASHING/);
  });
});
