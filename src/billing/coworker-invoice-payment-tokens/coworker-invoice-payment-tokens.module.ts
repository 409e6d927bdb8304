import { Module } from '@nestjs/common';
import { RecordModule } from '../../records/record.module.js';
import { coworkerInvoicePaymentTokens } from './coworker-invoice-payment-tokens.definition.js';

@Module(RecordModule.forType({ definition: coworkerInvoicePaymentTokens }))
export class CoworkerInvoicePaymentTokensModule {}
