import { Controller, HttpCode, Post, Req, Res } from '@nestjs/common';
import { ApiConsumes, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Public } from '../common/access.js';
import { TokenRateLimit } from './rate-limit.guard.js';
import { TokenService, type TokenResponse } from './token.service.js';

@ApiTags('Token')
@Controller('api/token')
export class TokenController {
  constructor(private readonly tokens: TokenService) {}

  /** Form-encoded only: grant_type=password (username, password, totp) or refresh_token. */
  @Public()
  @TokenRateLimit()
  @Post()
  @HttpCode(200)
  @ApiConsumes('application/x-www-form-urlencoded')
  @ApiOperation({ summary: 'Get an access token (password grant) or a new one for a refresh token' })
  async token(@Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply): Promise<TokenResponse> {
    void reply.header('Cache-Control', 'no-store');
    return this.tokens.token(request);
  }
}
