import { Injectable } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { AuthService, type LoginUser } from './auth.service.js';
import { refuseForeignCharset } from '../common/body-limits.js';
import { OAuthError } from './oauth-error.js';
import { RefreshTokensService } from './refresh-tokens.service.js';
import { passwordGrantStrategy, runStrategy } from './strategies.js';

export interface TokenResponse {
  access_token: string;
  token_type: 'bearer';
  expires_in: number;
  refresh_token: string;
}

export const LOGIN_REFUSED = 'The user name or password is incorrect, or the account cannot sign in now.';

const FORM = /^application\/x-www-form-urlencoded\b/i;

/** One form field as a string: a repeated field counts once. */
function field(body: Record<string, unknown>, name: string): string | undefined {
  const value = body[name];
  const text = Array.isArray(value) ? value[0] : value;
  return typeof text === 'string' ? text : undefined;
}

/** POST /api/token (docs/api.md §2.3): the password and refresh_token grants. */
@Injectable()
export class TokenService {
  private readonly passwordGrant = passwordGrantStrategy<LoginUser>(async (username, password, request) => {
    const totp = field(request.body ?? {}, 'totp');
    const result = await this.auth.checkLogin(username, password, totp, true);
    if ('user' in result) return result.user;
    switch (result.failure) {
      case 'two_factor':
        throw new OAuthError('two_factor_auth_check', totp ? 'The one-time code is not valid.' : 'A one-time code (totp) is required.');
      default:
        // The same for an unknown user, a wrong password, an inactive and a locked account: nobody
        // learns from it which accounts exist or what state they are in.
        throw new OAuthError('invalid_grant', LOGIN_REFUSED);
    }
  });

  constructor(
    private readonly auth: AuthService,
    private readonly refreshTokens: RefreshTokensService,
  ) {}

  async token(request: FastifyRequest): Promise<TokenResponse> {
    const body = request.body;
    refuseForeignCharset(request.headers['content-type']);
    if (!FORM.test(String(request.headers['content-type'] ?? '')) || !body || typeof body !== 'object') {
      throw new OAuthError('unsupported_grant_type');
    }
    const form = body as Record<string, unknown>;
    const headerClientId = request.headers.client_id;
    const clientId = field(form, 'client_id') ?? (typeof headerClientId === 'string' ? headerClientId : undefined);
    switch (field(form, 'grant_type')) {
      case 'password':
        return this.grantPassword(request, clientId);
      case 'refresh_token':
        return this.grantRefresh(field(form, 'refresh_token'), clientId);
      default:
        throw new OAuthError('unsupported_grant_type');
    }
  }

  private async grantPassword(request: FastifyRequest, clientId: string | undefined): Promise<TokenResponse> {
    const user = await runStrategy<LoginUser>(this.passwordGrant, request);
    if (!user) throw new OAuthError('invalid_grant', 'username and password are required.');
    return this.respond(user.Id, user.SecurityStamp, clientId ?? user.Email);
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
    if (state.lockedUntil && state.lockedUntil > Date.now()) throw new OAuthError('invalid_grant', 'The account is locked after too many failed logins; try again later.');
    return this.respond(outcome.userId, state.stamp, outcome.clientId);
  }

  private async respond(userId: number, stamp: number, clientId: string): Promise<TokenResponse> {
    return {
      access_token: this.auth.signAccessToken(userId, stamp),
      token_type: 'bearer',
      expires_in: this.auth.accessTokenTtl,
      refresh_token: await this.refreshTokens.issue(userId, clientId),
    };
  }
}
