import { createSecretKey } from 'node:crypto';
import { Global, Module } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { JwtModule } from '@nestjs/jwt';
import { PassportModule } from '@nestjs/passport';
import type { AppConfig } from '../config/configuration.js';
import { AuthService } from './auth.service.js';
import { AuthenticationGuard } from './authentication.guard.js';
import { BasicPassportGuard, PasswordGrantGuard } from './passport.guards.js';
import { RefreshTokenRepository } from './refresh-token.repository.js';
import { RefreshTokensService } from './refresh-tokens.service.js';
import { RolesGuard } from './roles.guard.js';
import { RoutePolicies } from './route-policy.js';
import { BasicCredentialsStrategy, PasswordGrantStrategy } from './strategies.js';
import { TokenRefreshController } from './token-refresh.controller.js';
import { TokenController } from './token.controller.js';
import { TokenService } from './token.service.js';
import { UserLoginRepository } from './user-login.repository.js';

@Global()
@Module({
  imports: [
    PassportModule.register({ session: false }),
    JwtModule.registerAsync({
      inject: [ConfigService],
      useFactory: (config: ConfigService<AppConfig, true>) => ({
        // A KeyObject: given a string, jsonwebtoken first tries (and fails) to read it as a public
        // key on every verify, which cost a quarter of a bearer request's CPU.
        secret: createSecretKey(Buffer.from(config.get('JWT_SECRET', { infer: true }), 'utf8')) as unknown as string,
        signOptions: { algorithm: 'HS256' },
        verifyOptions: { algorithms: ['HS256'] },
      }),
    }),
  ],
  controllers: [TokenController, TokenRefreshController],
  providers: [
    UserLoginRepository,
    RefreshTokenRepository,
    AuthService,
    RefreshTokensService,
    TokenService,
    PasswordGrantStrategy,
    BasicCredentialsStrategy,
    PasswordGrantGuard,
    BasicPassportGuard,
    RoutePolicies,
    AuthenticationGuard,
    RolesGuard,
  ],
  // The two global guards are registered in AppModule (APP_GUARD), after the rate limit.
  exports: [AuthService, RefreshTokensService, AuthenticationGuard, RolesGuard],
})
export class AuthModule {}
