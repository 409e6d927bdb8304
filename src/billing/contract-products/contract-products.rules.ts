import { Inject, Injectable } from '@nestjs/common';
import type { FieldError } from '../../records/envelopes.js';
import { RecordValidationException, refusal } from '../../records/errors.js';
import type { WireRecord } from '../../records/record-definition.js';
import { parseDbDateTime } from '../../records/wire-values.js';
import type { LocalDate } from '@js-joda/core';
import { billedDeleteRefusal, hasBilledLines, refuseBilledChanges } from '../due-items/billed-items.js';
import { utcDate } from '../due-items/periods.js';
import type { DeleteContext, RecordRules, SaveContext, SaveDecision } from '../../records/record-rules.js';
import { Database } from '../../persistence/database.js';
import type { ContractProductDto } from './dto/contract-product.dto.js';
import { ContractProductsRepository } from './contract-products.repository.js';
import type { Tx } from '../../persistence/tx.js';

/**
 * Contract products (docs/billing.md): the product must be one of the business of the contract's
 * customer (400 naming ProductId); Price defaults to the product's; the customer is copied from the
 * contract. Once billed, the contract, product and RepeatFrom stay, RepeatUntil may not end before what
 * was billed, and it cannot be deleted.
 */
@Injectable()
export class ContractProductsRules implements RecordRules<ContractProductDto> {
  @Inject(Database) private readonly db: Database;
  @Inject(ContractProductsRepository) private readonly rows: ContractProductsRepository;

  async beforeSave({ tx, values: given, existing }: SaveContext<ContractProductDto>): Promise<SaveDecision> {
    const values = { ...given };
    const contractId = Number(values.CoworkerContractId ?? existing?.CoworkerContractId);
    const productId = Number(values.ProductId ?? existing?.ProductId);
    const contract = await this.contractOf(contractId, tx);
    if (!contract) throw RecordValidationException.field('CoworkerContractId', `CoworkerContract ${contractId} does not exist`, contractId);
    const product = await this.productOf(productId, tx);
    if (!product) throw RecordValidationException.field('ProductId', `Product ${productId} does not exist`, productId);
    if (product.businessId !== contract.businessId) {
      throw RecordValidationException.field(
        'ProductId',
        `Product ${productId} is not a product of Business ${contract.businessId}, the business of the contract's customer.`,
        productId,
      );
    }
    values.CoworkerId = contract.coworkerId;
    if (!existing && (values.Price === undefined || values.Price === null)) values.Price = product.price;
    if (existing && values.Price === null) delete values.Price;
    if (!existing && (values.Quantity === undefined || values.Quantity === null)) values.Quantity = 1;
    if (existing && values.Quantity === null) delete values.Quantity;
    const billed = existing ? await this.billedUntil(Number(existing.Id), tx) : null;
    if (existing && billed) {
      const billedUntil = billed;
      const extra: FieldError[] = [];
      if (values.RepeatUntil instanceof Date && utcDate(values.RepeatUntil).isBefore(billedUntil.minusDays(1))) {
        extra.push({
          PropertyName: 'RepeatUntil',
          AttemptedValue: values.RepeatUntil.toISOString(),
          Message: `It was billed up to ${billedUntil.toString()} (exclusive): RepeatUntil cannot end before what was billed.`,
        });
      }
      refuseBilledChanges('ContractProduct', ['CoworkerContractId', 'ProductId', 'RepeatFrom'], values, existing, extra);
    }
    return { values };
  }

  async beforeDelete(record: WireRecord, { tx }: DeleteContext): Promise<void> {
    if (await hasBilledLines(this.db, 'ContractProductUniqueId', String(record.UniqueId), tx))
      throw refusal(billedDeleteRefusal('ContractProduct', record.Id));
  }

  /** Its business: the business of its contract's customer (also before the customer is copied to it). */
  async businessOf(values: Record<string, unknown>, tx: Tx): Promise<number | null> {
    const contractId = values.CoworkerContractId;
    if (contractId === undefined || contractId === null) return null;
    return (await this.contractOf(Number(contractId), tx))?.businessId ?? null;
  }

  /** The date it is billed up to (exclusive), null before its first invoice (InvoicedPeriod is not on the wire). */
  private async billedUntil(id: number, tx: Tx): Promise<LocalDate | null> {
    const period = await this.rows.invoicedPeriod(id, tx);
    return period ? utcDate(new Date(parseDbDateTime(period)!)) : null;
  }

  private contractOf(id: number, tx: Tx): Promise<{ coworkerId: number; businessId: number } | null> {
    return this.rows.contractOf(id, tx);
  }

  private productOf(id: number, tx: Tx): Promise<{ businessId: number; price: number } | null> {
    return this.rows.productOf(id, tx);
  }
}
