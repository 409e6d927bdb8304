import { Injectable } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { AuthService } from './auth.service.js';
import { OAuthError } from './oauth-error.js';
import { newTokenFamily, RefreshTokensService } from './refresh-tokens.service.js';
import { formField, tokenForm } from './token-form.js';
import type { LoginUser } from './user-login.repository.js';

export interface TokenResponse {
  access_token: string;
  token_type: 'bearer';
  expires_in: number;
  refresh_token: string;
}

/** POST /api/token (docs/api.md §2.3): the password and refresh_token grants. */
@Injectable()
export class TokenService {
  constructor(
    private readonly auth: AuthService,
    private readonly refreshTokens: RefreshTokensService,
  ) {}

  /** `login`: the user a password grant's credentials verified as (PasswordGrantGuard). */
  async token(request: FastifyRequest, login: LoginUser | undefined): Promise<TokenResponse> {
    const form = tokenForm(request);
    const headerClientId = request.headers.client_id;
    const clientId = formField(form, 'client_id') ?? (typeof headerClientId === 'string' ? headerClientId : undefined);
    switch (formField(form, 'grant_type')) {
      case 'password':
        if (!login) throw new Error('A password grant reached TokenService without PasswordGrantGuard.');
        return this.respond(login.Id, login.SecurityStamp, clientId ?? login.Email, newTokenFamily());
      case 'refresh_token':
        return this.grantRefresh(formField(form, 'refresh_token'), clientId);
      default:
        throw new OAuthError('unsupported_grant_type');
    }
  }

  private async grantRefresh(token: string | undefined, clientId: string | undefined): Promise<TokenResponse> {
    if (!token) throw new OAuthError('invalid_grant', 'refresh_token is required.');
    const outcome = await this.refreshTokens.use(token, clientId);
    if ('refused' in outcome) {
      const why = {
        unknown: 'The refresh token is not valid.',
        expired: 'The refresh token has expired.',
        client_mismatch: 'The client_id does not match the one the refresh token was issued to.',
        replayed: 'The refresh token has already been used or revoked.',
      }[outcome.refused];
      throw new OAuthError('invalid_grant', why);
    }
    const state = await this.auth.userState(outcome.userId, true);
    if (!state || !state.active) throw new OAuthError('invalid_grant', 'The account is not active.');
    if (state.lockedUntil && state.lockedUntil > Date.now())
      throw new OAuthError('invalid_grant', 'The account is locked after too many failed logins; try again later.');
    return this.respond(outcome.userId, state.stamp, outcome.clientId, outcome.familyId);
  }

  /** The tokens of a login or refresh: both of `familyId` (a replay of its refresh tokens stops the access token too). */
  private async respond(userId: number, stamp: number, clientId: string, familyId: string): Promise<TokenResponse> {
    return {
      access_token: this.auth.signAccessToken(userId, stamp, this.auth.accessTokenTtl, familyId),
      token_type: 'bearer',
      expires_in: this.auth.accessTokenTtl,
      refresh_token: await this.refreshTokens.issue(userId, clientId, familyId),
    };
  }
}
