import { Module } from '@nestjs/common';
import { RecordModule } from '../../records/record.module.js';
import { coworkerInvoiceLines } from './coworker-invoice-lines.definition.js';
import { CoworkerInvoiceLinesService } from './coworker-invoice-lines.service.js';

@Module(
  RecordModule.forType({
    definition: coworkerInvoiceLines,
    providers: [CoworkerInvoiceLinesService],
    exports: [CoworkerInvoiceLinesService],
  }),
)
export class CoworkerInvoiceLinesModule {}
