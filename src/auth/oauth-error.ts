import { HttpStatus } from '@nestjs/common';
import { WireResponseException } from '../records/errors.js';

export type OAuthErrorCode = 'unsupported_grant_type' | 'invalid_grant' | 'two_factor_auth_check';

/** The token endpoint's 400 errors (docs/api.md §2.3): {"error": "...", "error_description": "..."}. */
export class OAuthError extends WireResponseException {
  constructor(
    readonly code: OAuthErrorCode,
    description?: string,
  ) {
    super(description ? { error: code, error_description: description } : { error: code }, HttpStatus.BAD_REQUEST, {
      'Cache-Control': 'no-store',
    });
  }
}
