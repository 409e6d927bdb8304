import type { FastifyRequest } from 'fastify';
import { refuseForeignCharset } from '../http/body-limits.js';
import { OAuthError } from './oauth-error.js';

const FORM = /^application\/x-www-form-urlencoded\b/i;

/** One form field as a string: a repeated field counts once. */
export function formField(body: Record<string, unknown>, name: string): string | undefined {
  const value = body[name];
  const text = Array.isArray(value) ? value[0] : value;
  return typeof text === 'string' ? text : undefined;
}

/**
 * The form of a POST /api/token request (docs/api.md §2.3): form-encoded UTF-8 only, else 415 for
 * another charset and `unsupported_grant_type` for anything else.
 */
export function tokenForm(request: FastifyRequest): Record<string, unknown> {
  const body = request.body;
  refuseForeignCharset(request.headers['content-type']);
  if (!FORM.test(String(request.headers['content-type'] ?? '')) || !body || typeof body !== 'object') {
    throw new OAuthError('unsupported_grant_type');
  }
  return body as Record<string, unknown>;
}

/** The grant a token request asks for (refused as tokenForm refuses). */
export const tokenGrant = (request: FastifyRequest): string | undefined => formField(tokenForm(request), 'grant_type');
