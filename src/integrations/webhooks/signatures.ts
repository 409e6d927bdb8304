import { createHmac, randomBytes } from 'node:crypto';

const STANDARD_PREFIX = 'whsec_';

/** A new hook's secret: `whsec_` and the base64 of 32 random bytes (the Standard Webhooks form). */
export const generateSecret = (): string => `${STANDARD_PREFIX}${randomBytes(32).toString('base64')}`;

/** The platform's signature: HMAC-SHA256 of the body keyed by the secret's UTF-8 bytes, upper-case hex. */
export function platformSignature(secret: string, body: string): string {
  return createHmac('sha256', Buffer.from(secret, 'utf8')).update(body, 'utf8').digest('hex').toUpperCase();
}

/**
 * The Standard Webhooks signature (`v1,<base64>`) of `id.timestamp.body`. A `whsec_` secret is keyed
 * by the bytes its base64 encodes; any other by its UTF-8 bytes (what the libraries call a raw key).
 */
export function standardSignature(secret: string, id: string, timestamp: number, body: string): string {
  const key = secret.startsWith(STANDARD_PREFIX)
    ? Buffer.from(secret.slice(STANDARD_PREFIX.length), 'base64')
    : Buffer.from(secret, 'utf8');
  return `v1,${createHmac('sha256', key).update(`${id}.${timestamp}.${body}`, 'utf8').digest('base64')}`;
}

/** The headers of one attempt of a delivery. */
export function signedHeaders(secret: string, eventId: string, body: string, now = new Date()): Record<string, string> {
  const timestamp = Math.floor(now.getTime() / 1000);
  return {
    'content-type': 'application/json',
    'user-agent': 'coworking-api-webhooks',
    'x-nexudus-hook-signature': platformSignature(secret, body),
    'webhook-id': eventId,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': standardSignature(secret, eventId, timestamp, body),
  };
}
