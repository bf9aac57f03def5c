// A change of the sign-in address (docs/rules.md#profile). An application with PROFILE_WRITE
// may ask for one, as the platform's PATCH /v2/me takes `email`; the account's address moves
// only when its user confirms it in the web app, signed in, and only to an address proven to
// be theirs (a verified email, whose code was sent to it). A token alone therefore never hands
// the account to whoever holds it, and nobody can take an address they cannot read: invitations
// sent to it (docs/rules.md#membership-invitations) go to its owner alone.
import type { ServiceContext } from '../context.ts';
import { conflict, notFound } from '../errors.ts';
import type { EmailChangeRequest } from './store.ts';
import { checkEmailAddress } from './users.ts';

/** How long a request waits for the user: long enough to get to the web app, not forever. */
export const EMAIL_CHANGE_LIFETIME_MS = 7 * 24 * 3600_000;

export interface PendingEmailChange {
  email: string;
  /** Whether the address is a verified email of the user: Confirm is refused until it is. */
  verified: boolean;
  /** The application that asked; null once it is deleted. */
  clientName: string | null;
  requestedAt: number;
  expiresAt: number;
}

/**
 * Records what the application asked, replacing an earlier request: undefined when the address
 * is already the account's (nothing to confirm). Whether another account has the address is not
 * said: that would tell the application who has an account here. Confirming says it, to the user.
 */
export async function requestEmailChange(ctx: ServiceContext, userId: string, email: string, clientId: string | null): Promise<PendingEmailChange | undefined> {
  const address = checkEmailAddress(email);
  const now = ctx.clock();
  return ctx.stores.transaction(async (tx) => {
    const user = await tx.users.findById(userId);
    if (user === undefined) throw notFound('the user of this token no longer exists');
    if (user.email === address) {
      await tx.users.deleteEmailChange(userId);
      return undefined;
    }
    const request: EmailChangeRequest = { userId, email: address, clientId, requestedAt: now, expiresAt: now + EMAIL_CHANGE_LIFETIME_MS };
    await tx.users.putEmailChange(request);
    await tx.audit.append({ type: 'user.email_change_requested', actorId: userId, clientId, userId }, now);
    return pendingOf(tx, await tx.users.findEmailChange(userId), now);
  });
}

/** The request waiting for the user, if one has not expired. */
export async function pendingEmailChange(ctx: ServiceContext, userId: string): Promise<PendingEmailChange | undefined> {
  return pendingOf(ctx.stores, await ctx.stores.users.findEmailChange(userId), ctx.clock());
}

async function pendingOf(stores: ServiceContext['stores'], found: (EmailChangeRequest & { clientName: string | null }) | undefined, now: number): Promise<PendingEmailChange | undefined> {
  if (found === undefined || found.expiresAt <= now) return undefined;
  const verified = await isVerifiedEmailOf(stores, found.userId, found.email);
  return { email: found.email, verified, clientName: found.clientName, requestedAt: found.requestedAt, expiresAt: found.expiresAt };
}

/** Proven to be the user's: a code sent to the address came back (the verified emails of /v2/verified-resources). */
async function isVerifiedEmailOf(stores: ServiceContext['stores'], userId: string, email: string): Promise<boolean> {
  return ((await stores.verifiedResources.find({ userId }, 'email', email))?.verifiedAt ?? null) !== null;
}

/**
 * The user confirms, signed in, the address the page showed them (`shown`): it becomes the
 * account's, in one transaction with the request's removal and its audit. Refused, changing
 * nothing: a request replaced since the page was shown; an address not yet proven to be the
 * user's; then, and only then, an address another account has (so that only its owner learns
 * that). The request stays for the user to dismiss.
 */
export async function confirmEmailChange(ctx: ServiceContext, userId: string, shown: string): Promise<string> {
  const now = ctx.clock();
  return ctx.stores.transaction(async (tx) => {
    const found = await tx.users.findEmailChange(userId);
    const pending = await pendingOf(tx, found, now);
    if (pending === undefined) throw notFound('no change of your sign-in address is waiting: it was confirmed, dismissed or has expired');
    if (pending.email !== shown.trim().toLowerCase()) throw conflict(`the change waiting is now to ${pending.email}, not the address you confirmed: look at it again`, 'email');
    if (!pending.verified) throw conflict(`${pending.email} is not a verified address of yours yet: the application that asked must verify it first, with a code sent to it`, 'email');
    if (!(await tx.users.setEmail(userId, pending.email, now))) throw conflict(`${pending.email} is the sign-in address of another account: dismiss this change`, 'email');
    await tx.users.deleteEmailChange(userId);
    await tx.audit.append({ type: 'user.email_changed', actorId: userId, clientId: found!.clientId, userId }, now);
    return pending.email;
  });
}

/** The user dismisses the request: nothing changes. */
export async function dismissEmailChange(ctx: ServiceContext, userId: string): Promise<void> {
  if (!(await ctx.stores.users.deleteEmailChange(userId))) throw notFound('no change of your sign-in address is waiting');
}
