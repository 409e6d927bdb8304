import { Inject, Injectable } from '@nestjs/common';
import { RecordValidationException } from '../../records/errors.js';
import type { Principal } from '../../platform/principal.js';
import type { WireRecord } from '../../records/record-definition.js';
import { wholeSecond } from '../coworker-booking-credits/coworker-booking-credits.service.js';
import { toUnits } from '../../kernel/money.js';
import { EntrySettlement } from './entry-settlement.js';
import { isServiceCode, SERVICE_CODES } from './service-entries.js';
import type { DeleteContext, RecordRules, SaveContext, SaveDecision } from '../../records/record-rules.js';
import { RecordTypes } from '../../records/record-types.js';
import type { RecordService } from '../../records/record.service.js';
import { coworkerLedgerEntries } from './coworker-ledger-entries.definition.js';
import type { CoworkerLedgerEntryDto } from './dto/coworker-ledger-entry.dto.js';
import type { Tx } from '../../persistence/tx.js';

/** The invoices a saved entry's afterSave settles again: the one it is against, and the one it left. */
type Affected = number[];

const MANUAL = 11;

/** The service's own entries (INV, CRN, VOID) follow their invoices: no client changes or deletes one (400). */
function refuseServiceEntry(entry: WireRecord | null, how: 'changed' | 'deleted'): void {
  if (entry && SERVICE_CODES.includes(String(entry.Code))) {
    throw RecordValidationException.field(
      'Code',
      `Entry ${String(entry.Id)} (${String(entry.Code)}) is the service's own: it follows its invoice and cannot be ${how}.`,
      entry.Code,
    );
  }
}

/**
 * Ledger entries (docs/api.md §10.1). Exactly one of Debit and Credit is above 0. An entry against an
 * invoice (CoworkerInvoiceId, an invoice of the entry's customer) is a payment of it (Credit) or a
 * refund (Debit): in the entry's own transaction the invoice is locked, the entry checked against its
 * limits with the entry's own earlier amounts left out, and the invoice's settled fields written again
 * (EntrySettlement, which settlement provides). Changing or deleting an entry settles the invoices it was
 * and is against again.
 */
@Injectable()
export class CoworkerLedgerEntriesRules implements RecordRules<CoworkerLedgerEntryDto> {
  @Inject(RecordTypes) private readonly types: RecordTypes;
  @Inject(EntrySettlement) private readonly settlement: EntrySettlement;

  /** This type's RecordService, for the records the rules write besides a request's own. */
  private get records(): RecordService {
    return this.types.records(coworkerLedgerEntries);
  }

  async beforeSave({ tx, values: given, existing, dto }: SaveContext<CoworkerLedgerEntryDto>): Promise<SaveDecision<Affected>> {
    refuseServiceEntry(existing, 'changed');
    if (isServiceCode(given.Code)) {
      throw RecordValidationException.field(
        'Code',
        `${String(given.Code)} is the Code of the service's own entries (invoices, credit notes, voids): a client entry takes another.`,
        given.Code,
      );
    }
    const values: Record<string, unknown> = { ...given };
    const stored = (field: string) => (existing ? existing[field] : undefined);
    // An update keeps its business and customer when the body leaves them out or clears them.
    if (existing) for (const field of ['BusinessId', 'CoworkerId']) if (values[field] === null) delete values[field];
    const current = (field: string) => (values[field] !== undefined ? values[field] : stored(field));
    // Debit and Credit: absent keeps (update) or is 0 (create); null is 0.
    for (const field of ['Debit', 'Credit']) if (current(field) === undefined || current(field) === null) values[field] = 0;
    if (dto.PaymentGatewayName === null || (!existing && values.PaymentGatewayName === undefined)) values.PaymentGatewayName = MANUAL;
    if (dto.TransactionDate === null || (!existing && values.TransactionDate === undefined))
      values.TransactionDate = wholeSecond(new Date());
    else if (values.TransactionDate instanceof Date) values.TransactionDate = wholeSecond(values.TransactionDate);

    const debit = toUnits(current('Debit'));
    const credit = toUnits(current('Credit'));
    if (debit > 0n === credit > 0n) {
      throw RecordValidationException.field('Credit', 'Exactly one of Debit and Credit must be above 0.', current('Credit'));
    }

    const invoiceId = current('CoworkerInvoiceId') as number | null | undefined;
    const earlier = existing?.CoworkerInvoiceId as number | null | undefined;
    const affected = [...new Set([earlier, invoiceId].filter((id): id is number => typeof id === 'number'))].sort((a, b) => a - b);
    // Locked in Id order, so two entries moving between the same invoices cannot deadlock.
    for (const id of affected) {
      if (id === invoiceId) {
        const settled = await this.settlement.checkEntry(
          { id: existing ? Number(existing.Id) : undefined, invoiceId: id, debit, credit },
          tx,
        );
        if (settled.invoice.CoworkerId !== Number(current('CoworkerId'))) {
          throw RecordValidationException.field(
            'CoworkerInvoiceId',
            `CoworkerInvoice ${id} is not an invoice of Coworker ${current('CoworkerId')}.`,
            id,
          );
        }
      } else {
        await this.settlement.checkWithout(id, Number(existing!.Id), tx, 'CoworkerInvoiceId');
      }
    }
    return { values, pending: affected };
  }

  async afterSave(_id: number, saved: SaveContext<CoworkerLedgerEntryDto>, affected?: Affected): Promise<void> {
    for (const invoiceId of affected ?? []) await this.settlement.recompute(invoiceId, saved.tx, saved.actor);
  }

  async beforeDelete(entry: WireRecord, { tx, actor }: DeleteContext): Promise<void> {
    refuseServiceEntry(entry, 'deleted');
    const invoiceId = entry.CoworkerInvoiceId as number | null;
    if (invoiceId === null) return;
    const id = Number(entry.Id);
    await this.settlement.checkWithout(invoiceId, id, tx, 'Credit');
    await this.settlement.recompute(invoiceId, tx, actor, id);
  }

  /**
   * Writes an entry for a command (a payment or refund of an invoice already locked and checked), with
   * its change-log entry, in the command's transaction; the invoice is settled again by the caller.
   */
  async writeEntry(values: Record<string, unknown>, tx: Tx, actor: Principal | undefined): Promise<number> {
    return (await this.records.createRecorded(tx, actor, values)).id;
  }
}
