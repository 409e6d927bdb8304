import { Entity } from 'typeorm';
import { BoolColumn, DateTimeColumn, IntColumn, LongTextColumn, MoneyColumn } from '../../common/columns.js';
import { RecordEntity } from '../../common/record.entity.js';
import { Coworker } from '../../spaces/coworkers/coworker.entity.js';
import { Product } from '../products/product.entity.js';

/**
 * A sale: a customer bought Quantity of a product at Price (per unit) on SaleDate (docs/api.md §3).
 * Making one takes stock and releases the product's booking credits (docs/api.md §3.1).
 */
@Entity('coworkerproduct')
export class CoworkerProduct extends RecordEntity {
  @IntColumn({ nullable: false, references: () => Coworker }) CoworkerId: number;
  @IntColumn({ nullable: false, references: () => Product }) ProductId: number;
  @IntColumn({ nullable: false, default: 1 }) Quantity: number;
  @MoneyColumn({ nullable: false }) Price: number;
  @DateTimeColumn({ nullable: false, index: true }) SaleDate: Date;
  @LongTextColumn() Notes: string | null;
  @BoolColumn() Invoiced: boolean;
}
