import { Inject, Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { Database } from '../../common/database.js';
import { refusal } from '../../common/errors.js';
import type { Principal } from '../../common/principal.js';
import type { RecordService } from '../../common/record.service.js';
import { toWire } from '../../common/wire-values.js';
import { ContractProduct } from '../contract-products/contract-product.entity.js';
import { contractProducts } from '../contract-products/contract-products.definition.js';
import { InjectRecords } from '../../common/record.module.js';
import { CoworkerContract } from '../coworker-contracts/coworker-contract.entity.js';
import { coworkerContracts } from '../coworker-contracts/coworker-contracts.definition.js';
import { CoworkerInvoiceLine } from '../coworker-invoice-lines/coworker-invoice-line.entity.js';
import { CoworkerInvoice } from '../coworker-invoices/coworker-invoice.entity.js';
import { CoworkerProduct } from '../coworker-products/coworker-product.entity.js';
import { coworkerProducts } from '../coworker-products/coworker-products.definition.js';
import { DueItemSources } from '../due-items/due-items.js';
import { CoworkerBookingCreditUseHistoriesService } from '../coworker-booking-credit-use-histories/coworker-booking-credit-use-histories.service.js';

/** A source of billed lines, by the line's field that names it. */
interface Source {
  field: 'CoworkerContractUniqueId' | 'ContractProductUniqueId' | 'CoworkerProductUniqueId';
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

  async release(invoiceId: number, invoiceNumber: string, manager: EntityManager, actor: Principal | undefined): Promise<void> {
    const sources: Source[] = [
      { field: 'CoworkerContractUniqueId', entity: CoworkerContract, service: this.contracts },
      { field: 'ContractProductUniqueId', entity: ContractProduct, service: this.contractProducts },
      { field: 'CoworkerProductUniqueId', entity: CoworkerProduct, service: this.sales },
    ];
    for (const source of sources) {
      for (const billed of await this.billedBy(invoiceId, source, manager)) await this.releaseOne(invoiceId, invoiceNumber, source, billed, manager, actor);
    }
    // Sources other modules add (booking charges) give back their own items.
    for (const source of this.dueSources.all) await source.release?.({ invoiceId, manager, actor });
    // Universal credits its lines spent go back (docs/billing.md "Universal credits").
    await this.creditUses.giveBackInvoice(manager, actor, invoiceId);
  }

  /** The sources the invoice's lines bill through `source.field`, each with the first period it billed. */
  private async billedBy(invoiceId: number, source: Source, manager: EntityManager): Promise<Array<{ uniqueId: string; firstFrom: unknown }>> {
    const q = (name: string) => this.db.id(name);
    const rows = await this.db.query(
      `SELECT ${q(source.field)} AS u, MIN(${q('PeriodFrom')}) AS f FROM ${this.db.tableOf(CoworkerInvoiceLine)} ` +
      `WHERE ${q('CoworkerInvoiceId')} = ? AND ${q(source.field)} IS NOT NULL GROUP BY ${q(source.field)} ORDER BY ${q(source.field)}`,
      [invoiceId], manager,
    );
    return rows.map((row) => ({ uniqueId: String(row.u), firstFrom: row.f }));
  }

  private async releaseOne(
    invoiceId: number, invoiceNumber: string, source: Source, billed: { uniqueId: string; firstFrom: unknown }, manager: EntityManager, actor: Principal | undefined,
  ): Promise<void> {
    const { db } = this;
    const q = (name: string) => db.id(name);
    const table = db.tableOf(source.entity);
    const [record] = await db.query(`SELECT ${q('Id')} AS id${source.entity === CoworkerProduct ? `, ${q('RegularCharge')} AS r` : ''} FROM ${table} WHERE ${q('UniqueId')} = ?`, [billed.uniqueId], manager);
    if (!record) return; // the source is gone (cannot happen while it has billed lines: deletes are refused)
    const id = Number(record.id);
    const oneOff = source.entity === CoworkerProduct && !toWire('bool', record.r);
    const values: Record<string, unknown> = {};
    if (oneOff) {
      Object.assign(values, { Invoiced: 0, InvoicedOn: null, CoworkerInvoiceId: null, CoworkerInvoiceNumber: null });
    } else {
      // Lines of the same source on other invoices: none may bill a later period than those given back.
      const others = await db.query(
        `SELECT l.${q('PeriodFrom')} AS f, l.${q('CoworkerInvoiceId')} AS i, v.${q('InvoiceNumber')} AS n, v.${q('CreatedOn')} AS c FROM ${db.tableOf(CoworkerInvoiceLine)} l ` +
        `JOIN ${db.tableOf(CoworkerInvoice)} v ON v.${q('Id')} = l.${q('CoworkerInvoiceId')} WHERE l.${q(source.field)} = ? AND l.${q('CoworkerInvoiceId')} <> ? ORDER BY l.${q('PeriodFrom')} DESC`,
        [billed.uniqueId, invoiceId], manager,
      );
      const first = String(billed.firstFrom);
      const later = others.find((row) => String(row.f) > first);
      if (later) throw refusal(`Invoice ${invoiceNumber} cannot be deleted: invoice ${String(later.n)} bills later periods of the same items. Delete that one first.`);
      values.InvoicedPeriod = others.length ? first : null;
      if (source.entity === CoworkerContract) values.RenewalDate = first;
      if (source.entity === CoworkerProduct) {
        const latest = others[0];
        Object.assign(values, latest
          ? { InvoicedOn: latest.c, CoworkerInvoiceId: Number(latest.i), CoworkerInvoiceNumber: String(latest.n) }
          : { InvoicedOn: null, CoworkerInvoiceId: null, CoworkerInvoiceNumber: null });
      }
    }
    const before = await source.service.get(id, undefined, manager);
    const names = Object.keys(values);
    await db.query(
      `UPDATE ${table} SET ${names.map((name) => `${q(name)} = ?`).join(', ')}, ${q('Version')} = ${q('Version')} + 1, ${q('UpdatedOn')} = ?, ${q('UpdatedBy')} = ?, ${q('IsNew')} = 0 WHERE ${q('Id')} = ?`,
      [...names.map((name) => values[name]), db.dateParam(new Date()), actor?.email ?? null, id], manager,
    );
    await source.service.recordChange(manager, actor, 'Update', id, before);
  }
}
