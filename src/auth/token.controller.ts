import { Controller, HttpCode, Post, Req, UseGuards } from '@nestjs/common';
import { ApiBody, ApiConsumes, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { Public } from '../platform/access.js';
import { ApiAnswer, documentSchemas, objectSchema, ref } from '../http/openapi.js';
import { passwordGrantLogin, PasswordGrantGuard } from './passport.guards.js';
import { TokenRateLimit } from './rate-limit.guard.js';
import { TokenService, type TokenResponse } from './token.service.js';

documentSchemas({
  TokenRequest: {
    type: 'object',
    description: 'Form fields, snake_case (docs/api.md §2.3).',
    required: ['grant_type'],
    properties: {
      grant_type: { type: 'string', enum: ['password', 'refresh_token'] },
      username: { type: 'string', description: 'The email (password grant).' },
      password: { type: 'string', format: 'password', description: 'Password grant.' },
      totp: { type: 'string', description: 'The current one-time code, when two-factor is on.' },
      refresh_token: { type: 'string', description: 'Refresh grant.' },
      client_id: { type: 'string', description: 'Optional (also as a header); default the email. A refresh token belongs to its client.' },
    },
  },
  TokenResponse: objectSchema({
    access_token: { type: 'string', description: 'A JWT for `Authorization: Bearer`.' },
    token_type: { type: 'string', enum: ['bearer'] },
    expires_in: { type: 'integer', description: 'Seconds.' },
    refresh_token: { type: 'string', description: 'Valid 15 days, rotated on use.' },
  }),
  TokenError: {
    type: 'object',
    required: ['error'],
    properties: {
      error: { type: 'string', enum: ['unsupported_grant_type', 'invalid_grant', 'two_factor_auth_check'] },
      error_description: { type: 'string' },
    },
  },
});

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
  @ApiBody({ schema: ref('TokenRequest') })
  @ApiAnswer(200, 'The tokens.', ref('TokenResponse'))
  @ApiAnswer(400, 'A wrong grant, credentials or one-time code, or a body that is not form-encoded.', ref('TokenError'))
  @ApiAnswer(429, 'Too many token requests from this address (Retry-After).')
  @ApiOperation({ summary: 'Get an access token (password grant) or a new one for a refresh token' })
  async token(@Req() request: FastifyRequest): Promise<TokenResponse> {
    return this.tokens.token(request, passwordGrantLogin(request));
  }
}
