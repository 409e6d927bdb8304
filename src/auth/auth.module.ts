import { createSecretKey } from 'node:crypto';
import { Global, Module } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { JwtModule } from '@nestjs/jwt';
import type { AppConfig } from '../config/configuration.js';
import { AuthService } from './auth.service.js';
import { RefreshTokensService } from './refresh-tokens.service.js';
import { TokenRefreshController } from './token-refresh.controller.js';
import { TokenController } from './token.controller.js';
import { TokenService } from './token.service.js';

@Global()
@Module({
  imports: [
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
  providers: [AuthService, RefreshTokensService, TokenService],
  exports: [AuthService, RefreshTokensService],
})
export class AuthModule {}
