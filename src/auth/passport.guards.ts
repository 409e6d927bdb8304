import { Injectable, type ExecutionContext } from '@nestjs/common';
import { AuthGuard } from '@nestjs/passport';
import type { FastifyReply, FastifyRequest } from 'fastify';
import passport, { type Strategy } from 'passport';
import type { BasicLogin } from './auth.service.js';
import { OAuthError } from './oauth-error.js';
import { setPasswordRequest } from './passwords.js';
import { BasicCredentialsStrategy, PasswordGrantStrategy } from './strategies.js';
import { tokenGrant } from './token-form.js';
import type { LoginUser } from './user-login.repository.js';

/** Where the guards leave what passport decided (not `user`: that is the request's Principal). */
const PASSWORD_GRANT_LOGIN = 'passwordGrantLogin';
const BASIC_LOGIN = 'basicLogin';

type WithLogins = FastifyRequest & { [PASSWORD_GRANT_LOGIN]?: LoginUser; [BASIC_LOGIN]?: BasicLogin | null };

/**
 * Passport keeps one strategy per name for the whole process, and a process may hold several apps
 * (an HTTP suite starts a second one beside the first), each with its own database. So each guard
 * hands passport its own app's strategy: AuthGuard calls getRequest synchronously just before
 * passport looks the name up.
 */
function ownStrategy(strategy: Strategy & { name: string }): void {
  passport.use(strategy.name, strategy);
}

/** Passport hands on what a strategy threw (an Error: OAuthError, a database error) or reported. */
function rethrow(error: unknown): void {
  if (error) throw error instanceof Error ? error : new Error(String(error));
}

/** The user a password grant's credentials belong to; set by PasswordGrantGuard. */
export const passwordGrantLogin = (request: FastifyRequest): LoginUser | undefined => (request as WithLogins)[PASSWORD_GRANT_LOGIN];

/**
 * POST /api/token: a password grant goes through passport-local before the handler. A body that is
 * no token form is refused as TokenService refuses it (token-form.ts); other grants go on to it.
 */
@Injectable()
export class PasswordGrantGuard extends AuthGuard('local') {
  constructor(private readonly strategy: PasswordGrantStrategy) {
    super();
  }

  override async canActivate(context: ExecutionContext): Promise<boolean> {
    const http = context.switchToHttp();
    // Token answers are never cached, refusals included (docs/api.md §2.3).
    void http.getResponse<FastifyReply>().header('Cache-Control', 'no-store');
    const request = http.getRequest<FastifyRequest>();
    if (tokenGrant(request) !== 'password') return true;
    // The password check is dropped if the request is abandoned while it waits (passwords.ts).
    setPasswordRequest(request, http.getResponse<FastifyReply>(), 'token');
    return (await super.canActivate(context)) as boolean;
  }

  override getAuthenticateOptions() {
    return { property: PASSWORD_GRANT_LOGIN };
  }

  override getRequest(context: ExecutionContext): FastifyRequest {
    ownStrategy(this.strategy);
    return context.switchToHttp().getRequest<FastifyRequest>();
  }

  /** passport-local fails without checking anything when a field is missing. */
  override handleRequest<TUser>(error: unknown, user: TUser | false): TUser {
    rethrow(error);
    if (!user) throw new OAuthError('invalid_grant', 'username and password are required.');
    return user;
  }
}

/** HTTP Basic through passport-http: what AuthenticationGuard asks when it has no verified credential. */
@Injectable()
export class BasicPassportGuard extends AuthGuard('basic') {
  constructor(private readonly strategy: BasicCredentialsStrategy) {
    super();
  }

  /** The login the request's Basic credentials verify as, or null when they are refused. */
  async verify(context: ExecutionContext): Promise<BasicLogin | null> {
    await this.canActivate(context);
    return context.switchToHttp().getRequest<WithLogins>()[BASIC_LOGIN] ?? null;
  }

  override getAuthenticateOptions() {
    return { property: BASIC_LOGIN };
  }

  override getRequest(context: ExecutionContext): WithLogins {
    ownStrategy(this.strategy);
    return context.switchToHttp().getRequest<WithLogins>();
  }

  /** A refusal is not an error here: the caller answers it with the same 401 as a missing credential. */
  override handleRequest<TUser>(error: unknown, user: TUser | false | null): TUser {
    rethrow(error);
    return (user || null) as TUser;
  }
}
