// Users: accounts with argon2id password hashes (SPEC §5) and their profile.
import argon2 from 'argon2';
import type { Selectable } from 'kysely';
import { randomId } from '../oauth/token-format.ts';
import type { UsersTable } from '../storage/schema.ts';
import type { ServiceContext } from './context.ts';
import { conflict, notFound, validation } from './errors.ts';

export type UserRow = Selectable<UsersTable>;

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export interface NewUser {
  email: string;
  name: string;
  password: string;
  admin?: boolean;
}

export async function createUser(ctx: ServiceContext, input: NewUser): Promise<UserRow> {
  const email = input.email.trim().toLowerCase();
  if (!EMAIL.test(email) || email.length > 254) throw validation(`"${input.email}" is not an email address`, 'email');
  const name = input.name.trim();
  if (name === '' || name.length > 100) throw validation('name must be 1-100 characters', 'name');
  if (input.password.length < 8) throw validation('password must be at least 8 characters', 'password');
  if (input.password.length > 1024) throw validation('password must be at most 1024 characters', 'password');
  if (await findUserByEmail(ctx, email)) throw conflict(`a user with email ${email} already exists`, 'email');
  const now = ctx.clock();
  const base = email.split('@')[0]!.replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '') || 'user';
  const row: UserRow = {
    id: randomId(),
    email,
    name,
    username: `${base}-${randomId(4).toLowerCase()}`,
    password_hash: await argon2.hash(input.password, { type: argon2.argon2id }),
    is_admin: input.admin ? 1 : 0,
    time_zone: 'UTC',
    week_start: 'Monday',
    time_format: 24,
    default_schedule_id: null,
    organization_id: null,
    created_at: now,
    updated_at: now,
  };
  await ctx.db.insertInto('users').values(row).execute();
  return row;
}

export async function findUserByEmail(ctx: ServiceContext, email: string): Promise<UserRow | undefined> {
  return ctx.db.selectFrom('users').selectAll().where('email', '=', email.trim().toLowerCase()).executeTakeFirst();
}

export async function findUserById(ctx: ServiceContext, id: string): Promise<UserRow | undefined> {
  return ctx.db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function requireUserByEmail(ctx: ServiceContext, email: string): Promise<UserRow> {
  const user = await findUserByEmail(ctx, email);
  if (user === undefined) throw notFound(`no user with email ${email}`);
  return user;
}

// A hash to verify against when the account does not exist, so that the response time
// does not tell which emails are registered.
let decoyHash: Promise<string> | undefined;

/**
 * Checks a password: `user` is the account of that email whether or not the password is
 * right (a failed login is audited under it, SPEC §2 item 16); undefined for an unknown email.
 */
export async function checkPassword(ctx: ServiceContext, email: string, password: string): Promise<{ ok: boolean; user: UserRow | undefined }> {
  const user = await findUserByEmail(ctx, email);
  if (user === undefined) {
    decoyHash ??= argon2.hash('decoy-password', { type: argon2.argon2id });
    await argon2.verify(await decoyHash, password).catch(() => false);
    return { ok: false, user: undefined };
  }
  return { ok: await argon2.verify(user.password_hash, password).catch(() => false), user };
}

/** Returns the user when the password is right; undefined otherwise. */
export async function verifyPassword(ctx: ServiceContext, email: string, password: string): Promise<UserRow | undefined> {
  const { ok, user } = await checkPassword(ctx, email, password);
  return ok ? user : undefined;
}
