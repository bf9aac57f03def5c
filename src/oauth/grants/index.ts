// Grant registry: the token endpoint dispatches on grant_type through this list alone.
import { authorizationCodeGrant } from './authorization-code.ts';
import { refreshTokenGrant } from './refresh-token.ts';
import type { GrantHandler } from './types.ts';

export const grantHandlers: ReadonlyMap<string, GrantHandler> = new Map(
  [authorizationCodeGrant, refreshTokenGrant].map((g) => [g.grantType, g]),
);
