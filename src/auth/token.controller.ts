import { Controller, HttpCode, Post, Req, UseGuards } from '@nestjs/common';
import { ApiConsumes, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { Public } from '../common/access.js';
import { passwordGrantLogin, PasswordGrantGuard } from './passport.guards.js';
import { TokenRateLimit } from './rate-limit.guard.js';
import { TokenService, type TokenResponse } from './token.service.js';

@ApiTags('Token')
@Controller('api/token')
export class TokenController {
  constructor(private readonly tokens: TokenService) {}

  /** Form-encoded only: grant_type=password (username, password, totp) or refresh_token. */
  @Public()
  @TokenRateLimit()
  @UseGuards(PasswordGrantGuard)
  @Post()
  @HttpCode(200)
  @ApiConsumes('application/x-www-form-urlencoded')
  @ApiOperation({ summary: 'Get an access token (password grant) or a new one for a refresh token' })
  async token(@Req() request: FastifyRequest): Promise<TokenResponse> {
    return this.tokens.token(request, passwordGrantLogin(request));
  }
}
