import { Entity } from 'typeorm';
import { IntColumn, LongTextColumn, MoneyColumn, TextColumn } from '../../records/columns.js';
import { RecordEntity } from '../../records/record.entity.js';
import { Business } from '../businesses/business.entity.js';

/** A business's tax rate (docs/billing.md): products and tariffs name it, billed lines capture its Rate. */
@Entity('taxrate')
export class TaxRate extends RecordEntity {
  @IntColumn({ nullable: false, references: () => Business }) BusinessId: number;
  @TextColumn({ nullable: false, index: true }) Name: string;
  /** Percent, 0 to 100, at most 4 decimals. */
  @MoneyColumn({ nullable: false }) Rate: number;
  /** The platform's exemption code (1 None). */
  @IntColumn({ nullable: false, default: 1 }) ExemptionReason: number;
  @LongTextColumn() Description: string | null;
  /** EN 16931 VAT category (BT-151, BT-118; docs/einvoices.md): S, Z, E, AE, K, G, O, L, M. */
  @TextColumn({ length: 2 }) VatCategoryCode: string | null;
  @TextColumn() VatExemptionReasonText: string | null;
  @TextColumn() VatExemptionReasonCode: string | null;
}
