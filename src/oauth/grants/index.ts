// Grant registry: the token endpoint dispatches on grant_type through this list alone.
import { authorizationCodeGrant } from './authorization-code.ts';
import { jwtBearerGrant } from './jwt-bearer.ts';
import { refreshTokenGrant } from './refresh-token.ts';
import type { GrantHandler } from './types.ts';

export const grantHandlers: ReadonlyMap<string, GrantHandler> = new Map(
  [authorizationCodeGrant, refreshTokenGrant, jwtBearerGrant].map((g) => [g.grantType, g]),
);

/**
 * The grant types the token endpoint takes, in the registry's order: what the metadata
 * announces (RFC 8414 §2 grant_types_supported), what a registration may name (RFC 7591 §2
 * grant_types) and what an unsupported grant_type's error offers. One list, so they agree.
 */
export const SUPPORTED_GRANT_TYPES: readonly string[] = [...grantHandlers.keys()];
