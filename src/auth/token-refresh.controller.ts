import { Body, Controller, HttpCode, Param, Post, Req } from '@nestjs/common';
import { ApiBody, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { Actor, AccessDeniedWhenUnresolved, Authenticated, CustomerOnly, RequirePermission } from '../platform/access.js';
import { ApiAnswer, ref } from '../http/openapi.js';
import { failureConfirmation, successConfirmation, type ActionConfirmation } from '../records/envelopes.js';
import { RecordNotFoundException, WireResponseException } from '../records/errors.js';
import type { Principal } from '../platform/principal.js';
import { RecordIdPipe } from '../http/record-id.pipe.js';
import { Integer } from '../records/validation/fields.js';
import { validateBody } from '../records/validation/validation.js';
import { accessDenied } from './access-denied.js';
import { AuthService } from './auth.service.js';
import { mayManage } from './user-authority.js';

export class TokenRefreshDto {
  /** Validity of the new access token in minutes (default 30, at most a week). */
  @Integer({ min: 1, max: 10_080 })
  ValidityInMinutes?: number;
}

/** Access tokens of a chosen validity (docs/api.md §2.4 and §2.5). */
@ApiTags('Token')
@Controller('api/sys/users')
export class TokenRefreshController {
  constructor(private readonly auth: AuthService) {}

  /**
   * The customer's operation: an administrator's token gets 401 here, as on the platform. Administrators
   * mint tokens with the `{id}` variant, which checks what they may do to the user (themselves included).
   * A token minted with a token of a refresh-token family belongs to that family: a replay that revokes
   * the family stops it too (docs/api.md §2.3).
   */
  @Post('token/refresh')
  @HttpCode(200)
  @Authenticated()
  @CustomerOnly()
  @AccessDeniedWhenUnresolved()
  @ApiOperation({ summary: "A new access token for the calling customer's own login" })
  @ApiBody({ type: TokenRefreshDto, required: false })
  @ApiAnswer(200, 'Message "OK", Value the new access token.', ref('ActionConfirmation'))
  @ApiAnswer(400, 'ValidityInMinutes out of range.', ref('ActionConfirmation'))
  async refreshOwn(@Actor() actor: Principal, @Body() body: unknown, @Req() request: FastifyRequest): Promise<ActionConfirmation> {
    return this.issue(actor.userId, actor, body, this.bearerFamily(request));
  }

  @Post(':id/token/refresh')
  @HttpCode(200)
  @RequirePermission('User', 'Edit')
  @ApiOperation({ summary: 'A new access token for another user (full administrator or User-Edit)' })
  @ApiBody({ type: TokenRefreshDto, required: false })
  @ApiAnswer(200, 'Message "OK", Value the new access token.', ref('ActionConfirmation'))
  @ApiAnswer(400, 'ValidityInMinutes out of range.', ref('ActionConfirmation'))
  @ApiAnswer(404, 'No such user.', ref('NotFound'))
  async refreshOther(
    @Param('id', RecordIdPipe) id: number,
    @Actor() actor: Principal,
    @Body() body: unknown,
    @Req() request: FastifyRequest,
  ): Promise<ActionConfirmation> {
    const target = await this.auth.userState(id, true);
    if (!target) throw new RecordNotFoundException();
    // Nobody mints a token with more power than its own (only users it may manage).
    if (!mayManage(actor, { isAdmin: target.principal.isAdmin, roles: target.principal.roles, businessIds: target.principal.businessIds }))
      throw accessDenied();
    // A token an administrator mints for itself stays in the family of the token it was minted with.
    return this.issue(id, actor, body, id === actor.userId ? this.bearerFamily(request) : undefined);
  }

  /** The refresh-token family of the request's bearer token, if it has one (docs/api.md §2.3). */
  private bearerFamily(request: FastifyRequest): string | undefined {
    const header = request.headers.authorization ?? '';
    const space = header.indexOf(' ');
    return space > 0 && header.slice(0, space).toLowerCase() === 'bearer'
      ? this.auth.verifyAccessToken(header.slice(space + 1).trim())?.fam
      : undefined;
  }

  private async issue(userId: number, actor: Principal, body: unknown, family?: string): Promise<ActionConfirmation> {
    const { ValidityInMinutes } = await validateBody(TokenRefreshDto, body ?? {});
    const state = await this.auth.userState(userId, true);
    if (!state) throw accessDenied();
    try {
      const token = this.auth.signAccessToken(userId, state.stamp, (ValidityInMinutes ?? 30) * 60, family);
      return { ...successConfirmation('OK', token, actor.email), Message: 'OK' };
    } catch {
      throw new WireResponseException(failureConfirmation(500, 'The token could not be issued.'), 500);
    }
  }
}
