// docs/integrating.md#connect-an-ai-agent-mcp: RATE_LIMIT_REGISTRATIONS_PER_IP_PER_HOUR counts what can ask an admin
// for a review: registrations under DCR_POLICY=review and first uses of client metadata
// documents, together. Registrations under DCR_POLICY=open ask nobody for anything, and a
// hosted agent platform makes many of them from a few addresses: they count against their
// own, much higher, RATE_LIMIT_OPEN_REGISTRATIONS_PER_IP_PER_HOUR.
import type { FirstUseGate } from '../oauth/client-metadata.ts';
import type { AppContext } from '../context.ts';
import { callerKey, LimitExceeded, type RequestLimit } from './rate-limits.ts';

/** Takes one from the caller's allowance of `limit`; the refusal when there is none left. */
async function takeFrom(limit: RequestLimit, ip: string): Promise<LimitExceeded | undefined> {
  try {
    await limit.take(callerKey(ip));
    return undefined;
  } catch (error) {
    if (error instanceof LimitExceeded) return error;
    throw error;
  }
}

/** One registration (RFC 7591) from `ip` under `policy`: the refusal when its allowance is used up. */
export function takeRegistration(ctx: AppContext, policy: 'review' | 'open', ip: string): Promise<LimitExceeded | undefined> {
  return takeFrom(policy === 'open' ? ctx.limits.openRegistrationsPerIp : ctx.limits.registrationsPerIp, ip);
}

/** The first-use allowance of the caller at `ip`, for the authorization endpoint. */
export function documentFirstUse(ctx: AppContext, ip: string): FirstUseGate {
  return async () => {
    const refused = await takeFrom(ctx.limits.registrationsPerIp, ip);
    return refused && `too many new applications from this address: retry in ${refused.retryAfter} seconds`;
  };
}
