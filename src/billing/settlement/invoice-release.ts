import { Inject, Injectable } from '@nestjs/common';
import { Database } from '../../persistence/database.js';
import { refusal } from '../../records/errors.js';
import type { Principal } from '../../platform/principal.js';
import type { RecordService } from '../../records/record.service.js';
import { toWire } from '../../records/wire-values.js';
import { ContractProduct } from '../contract-products/contract-product.entity.js';
import { contractProducts } from '../contract-products/contract-products.definition.js';
import { InjectRecords } from '../../records/record.module.js';
import { CoworkerContract } from '../coworker-contracts/coworker-contract.entity.js';
import { coworkerContracts } from '../coworker-contracts/coworker-contracts.definition.js';
import { CoworkerProduct } from '../coworker-products/coworker-product.entity.js';
import { coworkerProducts } from '../coworker-products/coworker-products.definition.js';
import { DueItemSources } from '../due-items/due-items.js';
import { InvoiceReleaseRepository, type ReleasedField } from './invoice-release.repository.js';
import { CoworkerBookingCreditUseHistoriesService } from '../coworker-booking-credit-use-histories/coworker-booking-credit-use-histories.service.js';
import type { Tx } from '../../persistence/tx.js';

/** A source of billed lines, by the line's field that names it. */
interface Source {
  field: ReleasedField;
  entity: abstract new () => unknown;
  service: RecordService<any>;
}

/**
 * What COWORKER_INVOICE_DELETE gives back (docs/api.md §10.2): each item the invoice billed becomes due
 * again, so the next billing run bills it again (docs/billing.md). A one-off sale is no longer
 * invoiced; a contract, contract product or recurring sale is billed up to the first period the
 * invoice billed (InvoicedPeriod; RenewalDate for contracts), or never when no other invoice bills it.
 * Periods must be given back from the newest: an invoice whose items have later periods on another
 * invoice is refused. Universal credits its lines spent are given back. Every record changed goes in
 * its history, in the delete's transaction.
 */
@Injectable()
export class InvoiceRelease {
  @Inject(Database) private readonly db: Database;
  @InjectRecords(coworkerContracts) private readonly contracts: RecordService;
  @InjectRecords(contractProducts) private readonly contractProducts: RecordService;
  @InjectRecords(coworkerProducts) private readonly sales: RecordService;
  @Inject(DueItemSources) private readonly dueSources: DueItemSources;
  @Inject(CoworkerBookingCreditUseHistoriesService) private readonly creditUses: CoworkerBookingCreditUseHistoriesService;

  private get rows(): InvoiceReleaseRepository {
    return (this.statements ??= new InvoiceReleaseRepository(this.db));
  }

  private statements: InvoiceReleaseRepository | undefined;

  async release(invoiceId: number, invoiceNumber: string, tx: Tx, actor: Principal | undefined): Promise<void> {
    const sources: Source[] = [
      { field: 'CoworkerContractUniqueId', entity: CoworkerContract, service: this.contracts },
      { field: 'ContractProductUniqueId', entity: ContractProduct, service: this.contractProducts },
      { field: 'CoworkerProductUniqueId', entity: CoworkerProduct, service: this.sales },
    ];
    for (const source of sources) {
      for (const billed of await this.billedBy(invoiceId, source, tx))
        await this.releaseOne(invoiceId, invoiceNumber, source, billed, tx, actor);
    }
    // Sources other modules add (booking charges) give back their own items.
    for (const source of this.dueSources.all) await source.release?.({ invoiceId, tx, actor });
    // Universal credits its lines spent go back (docs/billing.md "Universal credits").
    await this.creditUses.giveBackInvoice(tx, actor, invoiceId);
  }

  /** The sources the invoice's lines bill through `source.field`, each with the first period it billed. */
  private billedBy(invoiceId: number, source: Source, tx: Tx): Promise<Array<{ uniqueId: string; firstFrom: unknown }>> {
    return this.rows.billedBy(invoiceId, source.field, tx);
  }

  private async releaseOne(
    invoiceId: number,
    invoiceNumber: string,
    source: Source,
    billed: { uniqueId: string; firstFrom: unknown },
    tx: Tx,
    actor: Principal | undefined,
  ): Promise<void> {
    const record = await this.rows.sourceRecord(source.entity, billed.uniqueId, tx);
    if (!record) return; // the source is gone (cannot happen while it has billed lines: deletes are refused)
    const { id } = record;
    const oneOff = source.entity === CoworkerProduct && !toWire('bool', record.regularCharge);
    const values: Record<string, unknown> = {};
    if (oneOff) {
      Object.assign(values, { Invoiced: 0, InvoicedOn: null, CoworkerInvoiceId: null, CoworkerInvoiceNumber: null });
    } else {
      // Lines of the same source on other invoices: none may bill a later period than those given back.
      const others = await this.rows.otherBillings(source.field, billed.uniqueId, invoiceId, tx);
      const first = String(billed.firstFrom);
      const later = others.find((row) => String(row.periodFrom) > first);
      if (later)
        throw refusal(
          `Invoice ${invoiceNumber} cannot be deleted: invoice ${later.invoiceNumber} bills later periods of the same items. Delete that one first.`,
        );
      values.InvoicedPeriod = others.length ? first : null;
      if (source.entity === CoworkerContract) values.RenewalDate = first;
      if (source.entity === CoworkerProduct) {
        const latest = others[0];
        Object.assign(
          values,
          latest
            ? { InvoicedOn: latest.invoiceCreatedOn, CoworkerInvoiceId: latest.invoiceId, CoworkerInvoiceNumber: latest.invoiceNumber }
            : { InvoicedOn: null, CoworkerInvoiceId: null, CoworkerInvoiceNumber: null },
        );
      }
    }
    await source.service.changeRecorded(tx, actor, id, () => this.rows.markReleased(source.entity, id, values, actor, tx));
  }
}
