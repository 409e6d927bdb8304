import { Controller, HttpCode, Param, Post, Req, UnauthorizedException } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { Actor, RequirePermission } from '../../platform/access.js';
import { successConfirmation } from '../../records/envelopes.js';
import { ApiAnswer, ref } from '../../http/openapi.js';
import { RecordNotFoundException, refusal } from '../../records/errors.js';
import type { Principal } from '../../platform/principal.js';
import { RecordIdPipe } from '../../http/record-id.pipe.js';
import { todayUtc } from './billing-runner.js';
import { BillingRunsService } from './billing-runs.service.js';

/** The platform's route that raises a customer's invoice now (docs/billing.md). */
@ApiTags('CoworkerInvoice')
@Controller('api/billing/coworkerinvoices')
export class RaiseInvoiceController {
  constructor(private readonly runs: BillingRunsService) {}

  @Post(':businessId/create/:coworkerId')
  @HttpCode(200)
  @RequirePermission('CoworkerInvoice', 'Create')
  @ApiOperation({ summary: 'Bill one customer of the business now, everything due up to today' })
  @ApiAnswer(200, 'Value: {Id} of the invoice made.', ref('ActionConfirmation'))
  @ApiAnswer(400, "Nothing to invoice, or the customer's items cannot be billed.", ref('ActionConfirmation'))
  async raise(
    @Param('businessId', RecordIdPipe) businessId: number,
    @Param('coworkerId', RecordIdPipe) coworkerId: number,
    @Req() request: FastifyRequest,
    @Actor() actor?: Principal,
  ) {
    if (actor && actor.businessIds !== null && !actor.businessIds.includes(businessId)) throw new UnauthorizedException();
    const customer = await this.runs.runner.customer(coworkerId);
    if (!customer || customer.businessId !== businessId) throw new RecordNotFoundException();
    // The write scope WriteInterceptor made: the deadline stops the run, the change log records the request id.
    const run = await this.runs.runBusiness(businessId, [customer], todayUtc(), 'Manual', actor, request.writeScope ?? undefined);
    if (run.errors.length) throw refusal(run.errors[0].Message);
    if (!run.invoices.length) throw refusal('Nothing to invoice.');
    return successConfirmation('CoworkerInvoice was successfully created.', { Id: run.invoices[0].Id }, actor?.email ?? null);
  }
}
