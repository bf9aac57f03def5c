// docs/integrating.md#connect-an-ai-agent-mcp: RATE_LIMIT_REGISTRATIONS_PER_IP_PER_HOUR counts dynamic registrations and
// first uses of client metadata documents together: each makes a client nobody signed in to
// make, and each can ask an admin for a review.
import type { FirstUseGate } from '../oauth/client-metadata.ts';
import type { AppContext } from '../context.ts';
import { callerKey, LimitExceeded } from './rate-limits.ts';

/** Takes one from the caller's allowance; the refusal when there is none left. */
export async function takeNewClient(ctx: AppContext, ip: string): Promise<LimitExceeded | undefined> {
  try {
    await ctx.limits.registrationsPerIp.take(callerKey(ip));
    return undefined;
  } catch (error) {
    if (error instanceof LimitExceeded) return error;
    throw error;
  }
}

/** The first-use allowance of the caller at `ip`, for the authorization endpoint. */
export function documentFirstUse(ctx: AppContext, ip: string): FirstUseGate {
  return async () => {
    const refused = await takeNewClient(ctx, ip);
    return refused && `too many new applications from this address: retry in ${refused.retryAfter} seconds`;
  };
}
