import { Injectable } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import type { FastifyRequest } from 'fastify';
import { Strategy as LocalStrategy } from 'passport-local';
import { AuthService, type BasicLogin } from './auth.service.js';
import { OAuthError } from './oauth-error.js';
import { Rfc7617BasicStrategy } from './rfc7617-basic.strategy.js';
import { passwordRequestFor } from './passwords.js';
import { formField } from './token-form.js';
import type { LoginUser } from './user-login.repository.js';

export const LOGIN_REFUSED = 'The user name or password is incorrect, or the account cannot sign in now.';

/**
 * The password grant of POST /api/token (docs/api.md §2.3): passport-local reads the form fields
 * `username` and `password`; the login check also wants `totp` when the user has two-factor on.
 */
@Injectable()
export class PasswordGrantStrategy extends PassportStrategy(LocalStrategy, 'local') {
  constructor(private readonly auth: AuthService) {
    super({ usernameField: 'username', passwordField: 'password', passReqToCallback: true, session: false });
  }

  async validate(request: FastifyRequest, username: string, password: string): Promise<LoginUser> {
    const totp = formField((request.body ?? {}) as Record<string, unknown>, 'totp');
    const result = await this.auth.checkLogin(username, password, totp, true, passwordRequestFor(request));
    if ('user' in result) return result.user;
    if (result.failure === 'two_factor') {
      throw new OAuthError('two_factor_auth_check', totp ? 'The one-time code is not valid.' : 'A one-time code (totp) is required.');
    }
    // The same for an unknown user, a wrong password, an inactive and a locked account: nobody
    // learns from it which accounts exist or what state they are in.
    throw new OAuthError('invalid_grant', LOGIN_REFUSED);
  }
}

/**
 * HTTP Basic (docs/api.md §2.2), through passport-http with RFC 7617 parsing. Only credentials the
 * instance has not verified within the last minute get here (authentication.guard.ts).
 */
@Injectable()
export class BasicCredentialsStrategy extends PassportStrategy(Rfc7617BasicStrategy, 'basic') {
  constructor(private readonly auth: AuthService) {
    super({ passReqToCallback: true });
  }

  /** A login without a one-time code: two-factor users are refused. */
  validate(request: FastifyRequest, email: string, password: string): Promise<BasicLogin | null> {
    return this.auth.verifyBasic(email, password, passwordRequestFor(request));
  }
}
