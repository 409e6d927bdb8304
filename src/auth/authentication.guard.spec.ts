import assert from 'node:assert/strict';
import { before, describe, it, mock } from 'node:test';
import { UnauthorizedException, type ExecutionContext } from '@nestjs/common';
import type { ConfigService } from '@nestjs/config';
import { Reflector } from '@nestjs/core';
import { JwtService } from '@nestjs/jwt';
import passport from 'passport';
import { CustomerOnly, Public, RequirePermission } from '../platform/access.js';
import type { Principal } from '../platform/principal.js';
import { routeContext } from '../http/route-context.js';
import type { AppConfig } from '../config/configuration.js';
import { AuthService } from './auth.service.js';
import { AuthenticationGuard } from './authentication.guard.js';
import { BasicPassportGuard } from './passport.guards.js';
import { hashPassword } from './passwords.js';
import type { RateLimitGuard } from './rate-limit.guard.js';
import { RolesGuard } from './roles.guard.js';
import { RoutePolicies } from './route-policy.js';
import { BasicCredentialsStrategy } from './strategies.js';
import type { LoginUser, UserAccess, UserLoginRepository } from './user-login.repository.js';

const EMAIL = 'ann@example.com';
const PASSWORD = 'pass:word';
const basic = (email: string, password: string) => `Basic ${Buffer.from(`${email}:${password}`).toString('base64')}`;

/** Routes with the access decorators the guards read. */
class Routes {
  @Public()
  open() {}

  @RequirePermission('Product', 'Read')
  readProduct() {}

  @RequirePermission('Product', 'Delete')
  deleteProduct() {}

  @CustomerOnly()
  ownInvoices() {}
}

type Request = { headers: Record<string, string>; user?: Principal };

function contextFor(handler: keyof Routes, authorization?: string): { context: ExecutionContext; request: Request } {
  const request: Request = { headers: authorization === undefined ? {} : { authorization } };
  const context = routeContext(Object.getOwnPropertyDescriptor(Routes.prototype, handler)?.value as () => void, request, {}, Routes);
  return { context, request };
}

/** AuthService over one stored user (a product reader), with the repository the database would be. */
async function setUp(email = EMAIL) {
  const user: LoginUser = {
    Id: 7,
    Email: email,
    PasswordHash: await hashPassword(PASSWORD),
    Active: true,
    TwoFactorEnabled: false,
    TwoFactorSecret: null,
    SecurityStamp: 3,
    LockedUntil: null,
    LastTotpStep: null,
  };
  const access: UserAccess = {
    email,
    active: true,
    isAdmin: false,
    roles: ['Product-Read'],
    twoFactor: false,
    stamp: 3,
    lockedUntil: null,
    coworkerId: null,
    businessIds: [1],
    revokedFamilies: [],
  };
  const failedLogins: number[] = [];
  const users = {
    findByEmail: async (address: string) => (address === email ? user : null),
    findAccess: async (id: number) => (id === user.Id ? access : null),
    resetFailedLogins: async () => undefined,
    recordFailedLogin: async (id: number) => void failedLogins.push(id),
    claimTotpStep: async () => true,
  } as unknown as UserLoginRepository;
  const settings: Record<string, unknown> = { ACCESS_TOKEN_TTL_SECONDS: 1800, JWT_SECRET: 'unit-test-secret', JWT_PREVIOUS_SECRETS: [] };
  const config = { get: (name: string) => settings[name] } as unknown as ConfigService<AppConfig, true>;
  const auth = new AuthService(users, new JwtService({ secret: 'unit-test-secret', signOptions: { algorithm: 'HS256' } }), config);
  const strategy = new BasicCredentialsStrategy(auth);
  const policies = new RoutePolicies(new Reflector());
  const guard = new AuthenticationGuard(policies, auth, new BasicPassportGuard(strategy), {
    get: () => ({ countPasswordCheck: async () => undefined }) as unknown as RateLimitGuard,
  } as never);
  return { auth, strategy, guard, roles: new RolesGuard(policies), failedLogins };
}

describe('AuthenticationGuard and RolesGuard', () => {
  let s: Awaited<ReturnType<typeof setUp>>;
  before(async () => {
    s = await setUp();
  });

  it('let a public route through without credentials', async () => {
    const { context, request } = contextFor('open');
    assert.equal(await s.guard.canActivate(context), true);
    assert.equal(s.roles.canActivate(context), true);
    assert.equal(request.user, undefined);
  });

  it('refuse a missing, unknown-scheme or bad credential with 401', async () => {
    for (const header of [undefined, 'Digest abc', 'Bearer not-a-token', basic(EMAIL, 'pass'), basic('bob@example.com', PASSWORD)]) {
      await assert.rejects(
        async () => s.guard.canActivate(contextFor('readProduct', header).context),
        UnauthorizedException,
        String(header),
      );
    }
  });

  it('accept a bearer token of the current stamp, and not one of an earlier stamp', async () => {
    const { context, request } = contextFor('readProduct', `Bearer ${s.auth.signAccessToken(7, 3)}`);
    assert.equal(await s.guard.canActivate(context), true);
    assert.equal(request.user?.userId, 7);
    assert.equal(request.user?.email, EMAIL);
    await assert.rejects(
      async () => s.guard.canActivate(contextFor('readProduct', `Bearer ${s.auth.signAccessToken(7, 2)}`).context),
      UnauthorizedException,
    );
    // The user's state is cached now: the next request is decided at once, without a promise.
    const cached = contextFor('readProduct', `Bearer ${s.auth.signAccessToken(7, 3)}`);
    assert.equal(s.guard.canActivate(cached.context), true);
    assert.equal(cached.request.user?.userId, 7);
  });

  it('check Basic credentials through passport once; a cache hit never enters passport', async () => {
    const authenticate = mock.method(passport, 'authenticate');
    const validate = mock.method(s.strategy, 'validate');
    try {
      const header = basic(EMAIL, PASSWORD);
      const first = contextFor('readProduct', header);
      assert.equal(await s.guard.canActivate(first.context), true);
      assert.equal(first.request.user?.userId, 7);
      assert.equal(validate.mock.callCount(), 1);
      assert.deepEqual(validate.mock.calls[0].arguments.slice(1, 3), [EMAIL, PASSWORD]);
      assert.equal(authenticate.mock.callCount(), 1);
      for (let i = 0; i < 3; i++) {
        const again = contextFor('readProduct', header);
        // Remembered, with the user's state cached: decided at once, without a promise.
        assert.equal(s.guard.canActivate(again.context), true);
        assert.equal(again.request.user?.userId, 7);
      }
      assert.equal(validate.mock.callCount(), 1);
      assert.equal(authenticate.mock.callCount(), 1);
    } finally {
      authenticate.mock.restore();
      validate.mock.restore();
    }
  });

  it('share one check among requests that arrive together with the same unverified credentials', async () => {
    const validate = mock.method(s.strategy, 'validate');
    try {
      const header = basic(EMAIL, 'wrong:guess');
      const outcomes = await Promise.allSettled([1, 2, 3].map(async () => s.guard.canActivate(contextFor('readProduct', header).context)));
      assert.deepEqual(
        outcomes.map((o) => o.status),
        ['rejected', 'rejected', 'rejected'],
      );
      assert.equal(validate.mock.callCount(), 1);
    } finally {
      validate.mock.restore();
    }
  });

  it('refuse, with 401, a route whose role the principal lacks or a customer route to a non-customer', async () => {
    for (const handler of ['readProduct', 'deleteProduct', 'ownInvoices'] as const) {
      const { context } = contextFor(handler, `Bearer ${s.auth.signAccessToken(7, 3)}`);
      assert.equal(await s.guard.canActivate(context), true);
      if (handler === 'readProduct') assert.equal(s.roles.canActivate(context), true);
      else assert.throws(() => s.roles.canActivate(context), UnauthorizedException, handler);
    }
  });

  it("use their own app's strategy, though passport keeps one per name for the whole process", async () => {
    const other = await setUp('bob@example.com'); // registered its strategy under 'basic' last
    const validate = mock.method(s.strategy, 'validate');
    const othersValidate = mock.method(other.strategy, 'validate');
    try {
      const { context, request } = contextFor('readProduct', basic(EMAIL, `${PASSWORD}:fresh`));
      await assert.rejects(async () => s.guard.canActivate(context), UnauthorizedException);
      assert.equal(validate.mock.callCount(), 1);
      assert.equal(othersValidate.mock.callCount(), 0);
      assert.equal(request.user, undefined);
    } finally {
      validate.mock.restore();
      othersValidate.mock.restore();
    }
  });

  it('refuse a non-public route that reaches RolesGuard without a principal', () => {
    assert.throws(() => s.roles.canActivate(contextFor('readProduct').context), UnauthorizedException);
  });
});
