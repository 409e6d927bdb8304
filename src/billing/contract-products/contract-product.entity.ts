import { Entity } from 'typeorm';
import { DateTimeColumn, IntColumn, LongTextColumn, MoneyColumn } from '../../records/columns.js';
import { RecordEntity } from '../../records/record.entity.js';
import { CoworkerContract } from '../coworker-contracts/coworker-contract.entity.js';
import { Product } from '../products/product.entity.js';

/** A product billed with every period of a contract (docs/billing.md). */
@Entity('contractproduct')
export class ContractProduct extends RecordEntity {
  @IntColumn({ nullable: false, references: () => CoworkerContract }) CoworkerContractId: number;
  @IntColumn({ nullable: false, references: () => Product }) ProductId: number;
  @IntColumn({ nullable: false, default: 1 }) Quantity: number;
  @MoneyColumn({ nullable: false }) Price: number;
  @DateTimeColumn() RepeatFrom: Date | null;
  @DateTimeColumn() RepeatUntil: Date | null;
  @LongTextColumn() Notes: string | null;
  /** Billed up to this date, exclusive (never on the wire). */
  @DateTimeColumn() InvoicedPeriod: Date | null;
  /** The contract's customer, copied from it: decides which restricted administrators see it. */
  @IntColumn({ nullable: false, index: true }) CoworkerId: number;
}
