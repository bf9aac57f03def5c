// Users: accounts with argon2id password hashes (docs/rules.md#data) and their profile.
import { hashPassword, NO_PASSWORD, passwordMatches, spendDecoyCheck, type PasswordHashing } from './passwords.ts';
import { randomId } from '../../oauth/token-format.ts';
import type { ServiceContext } from '../context.ts';
import { conflict, notFound, validation } from '../errors.ts';
import type { User } from './store.ts';
import { refuseControlCharacters } from '../names.ts';
import type { Actor } from '../actors.ts';

export type { User } from './store.ts';

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** An address as accounts keep it (lower case); throws a validation error naming `field` when it is none. */
export function checkEmailAddress(value: string, field = 'email'): string {
  const email = normalizeEmail(value);
  if (!EMAIL.test(email) || email.length > 254) throw validation(`"${value}" is not an email address`, field);
  return email;
}

export interface NewUser {
  email: string;
  name: string;
  password: string;
  admin?: boolean;
}

const normalizeEmail = (email: string) => email.trim().toLowerCase();

/** The new user's email and name as stored; throws a validation error naming the field. */
function checkNewUser(input: NewUser): { email: string; name: string } {
  const email = checkEmailAddress(input.email);
  const name = input.name.trim();
  refuseControlCharacters(name);
  if (name === '' || name.length > 100) throw validation('name must be 1-100 characters', 'name');
  checkNewPassword(input.password);
  return { email, name };
}

function checkNewPassword(password: string): void {
  if (password.length < 8) throw validation('password must be at least 8 characters', 'password');
  if (password.length > 1024) throw validation('password must be at most 1024 characters', 'password');
}

/** The cost new hashes are made at: the context's, or RFC 9106's when it names none. */
const hashingOf = (ctx: ServiceContext): PasswordHashing => ctx.passwordHashing ?? 'rfc9106';

/**
 * Makes an account. With an `actor` (the operator's `gatehouse users create`) it is audited
 * as `user.created`, saying whether it is a platform admin, in the same transaction
 * (docs/rules.md#audit-events); seeding, as the tests' fixtures and the benchmark do, is
 * nobody's act.
 */
export async function createUser(ctx: ServiceContext, input: NewUser, actor?: Actor): Promise<User> {
  const { email, name } = checkNewUser(input);
  const taken = () => conflict(`a user with email ${email} already exists`, 'email');
  if (await findUserByEmail(ctx, email)) throw taken();
  const user = await newUserRecord(ctx, { email, name, passwordHash: await hashPassword(input.password, hashingOf(ctx)), isAdmin: input.admin === true });
  return ctx.stores.transaction(async (tx) => {
    if (!(await tx.users.insert(user))) throw taken();
    if (actor !== undefined) await tx.audit.append({ type: 'user.created', ...actor, userId: user.id, data: { admin: user.isAdmin } }, user.createdAt);
    return user;
  });
}

/** A generated username: the address's mailbox and a random suffix, so two alike never clash. */
const usernameOf = (email: string) => `${email.split('@')[0]!.replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '') || 'user'}-${randomId(4).toLowerCase()}`;

/** A new account's record, with the defaults every new account starts with. */
export async function newUserRecord(
  ctx: ServiceContext,
  fields: Pick<User, 'email' | 'name' | 'passwordHash'> & Partial<Pick<User, 'username' | 'isAdmin' | 'timeZone' | 'weekStart' | 'timeFormat' | 'createdByOrganizationId'>>,
): Promise<User> {
  const now = ctx.clock();
  return {
    id: await ctx.stores.ids.next('users'),
    username: fields.username ?? usernameOf(fields.email),
    isAdmin: false,
    timeZone: 'UTC',
    weekStart: 'Monday',
    timeFormat: 24,
    defaultScheduleId: null,
    organizationId: null,
    createdAt: now,
    updatedAt: now,
    createdByOrganizationId: null,
    ...fields,
  };
}

export async function findUserByEmail(ctx: ServiceContext, email: string): Promise<User | undefined> {
  return ctx.stores.users.findByEmail(normalizeEmail(email));
}

export async function findUserById(ctx: ServiceContext, id: string): Promise<User | undefined> {
  return ctx.stores.users.findById(id);
}

export async function requireUserByEmail(ctx: ServiceContext, email: string): Promise<User> {
  if (email.trim() === '') throw validation('the email is empty: give the email of a user', 'email');
  const user = await findUserByEmail(ctx, email);
  if (user === undefined) throw notFound(`no user with email ${email}`);
  return user;
}

/** Every account, by email; with `admins`, the platform admins only. */
export async function listUsers(ctx: ServiceContext, filter: { admins?: boolean } = {}): Promise<User[]> {
  return ctx.stores.users.list(filter);
}

/**
 * An operator sets a new password for a user who lost theirs. The user's browser sessions
 * end with it: whoever was signed in with the old password is signed out.
 */
export async function resetPassword(ctx: ServiceContext, email: string, password: string, actorId: string | null): Promise<{ user: User; sessionsEnded: number }> {
  checkNewPassword(password);
  const hash = await hashPassword(password, hashingOf(ctx));
  const now = ctx.clock();
  return ctx.stores.transaction(async (tx) => {
    const user = await requireUserByEmail({ ...ctx, stores: tx }, email);
    await tx.users.setPasswordHash(user.id, hash, now);
    const sessionsEnded = await tx.sessions.deleteForUser(user.id);
    await tx.audit.append({ type: 'user.password_reset', actorId, userId: user.id, data: { sessionsEnded } }, now);
    return { user: { ...user, passwordHash: hash, updatedAt: now }, sessionsEnded };
  });
}

/** Makes a user a platform admin, who reviews clients (docs/rules.md#request-parameters), or takes it away. */
export async function setAdmin(ctx: ServiceContext, email: string, admin: boolean, actorId: string | null): Promise<{ user: User; changed: boolean }> {
  const now = ctx.clock();
  return ctx.stores.transaction(async (tx) => {
    const user = await requireUserByEmail({ ...ctx, stores: tx }, email);
    if (user.isAdmin === admin) return { user, changed: false };
    await tx.users.setAdmin(user.id, admin, now);
    await tx.audit.append({ type: 'user.admin_changed', actorId, userId: user.id, data: { admin } }, now);
    return { user: { ...user, isAdmin: admin, updatedAt: now }, changed: true };
  });
}

/**
 * Checks a password: `user` is the account of that email whether or not the password is
 * right (a failed login is audited under it, docs/rules.md#audit-events); undefined for an unknown email.
 */
export async function checkPassword(ctx: ServiceContext, email: string, password: string): Promise<{ ok: boolean; user: User | undefined }> {
  const user = await findUserByEmail(ctx, email);
  if (user === undefined) {
    // The time of the answer must not tell which emails are registered.
    await spendDecoyCheck(password, hashingOf(ctx));
    return { ok: false, user: undefined };
  }
  if (user.passwordHash === NO_PASSWORD) {
    // As long as a real check: the time must not tell that the account has no password yet.
    await spendDecoyCheck(password, hashingOf(ctx));
    return { ok: false, user };
  }
  return { ok: await passwordMatches(user.passwordHash, password), user };
}

/** Returns the user when the password is right; undefined otherwise. */
export async function verifyPassword(ctx: ServiceContext, email: string, password: string): Promise<User | undefined> {
  const { ok, user } = await checkPassword(ctx, email, password);
  return ok ? user : undefined;
}
