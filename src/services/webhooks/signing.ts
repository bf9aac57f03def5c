// Standard Webhooks signatures (https://www.standardwebhooks.com, "Signature scheme"): the
// receiver recomputes HMAC-SHA256 over `id.timestamp.body` with the secret's bytes and
// compares. The secret travels as `whsec_` + base64 of those bytes.
import { createHmac, randomBytes } from 'node:crypto';

const PREFIX = 'whsec_';

/** A new signing secret: 24 random bytes, in the `whsec_` form receivers' libraries take. */
export function newSigningSecret(): string {
  return `${PREFIX}${randomBytes(24).toString('base64')}`;
}

/** The headers of one signed delivery; `timestamp` in seconds since the epoch. */
export function signedHeaders(secret: string, id: string, timestamp: number, body: string): Record<string, string> {
  const key = Buffer.from(secret.startsWith(PREFIX) ? secret.slice(PREFIX.length) : secret, 'base64');
  const signature = createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64');
  return {
    'webhook-id': id,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': `v1,${signature}`,
  };
}
