// What the protocol core needs from the outside world, passed in explicitly.
import type { OAuthStore } from './storage.ts';

export interface OAuthContext {
  store: OAuthStore;
  /** Milliseconds since the epoch; injectable so tests can move time. */
  clock: () => number;
  /** RFC 9207 `iss` and RFC 8414 issuer. */
  issuer: string;
  ttl: { authCode: number; accessToken: number; refreshIdle: number; refreshReuseWindow: number };
}
