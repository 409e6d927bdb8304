import { Integer, Money, Reference, Text, TextCode } from '../../../records/validation/fields.js';
import { RecordDto } from '../../../records/validation/record.dto.js';
import { Business } from '../../businesses/business.entity.js';

/** The VAT categories of EN 16931 (UNTDID 5305 as the standard restricts it). */
export const VAT_CATEGORIES = ['S', 'Z', 'E', 'AE', 'K', 'G', 'O', 'L', 'M'] as const;

export class TaxRateDto extends RecordDto {
  /** The business the rate belongs to; it cannot change once made. */
  @Reference(() => Business, { required: true }) BusinessId: number;
  @Text({ required: true }) Name: string;
  /** Percent of the net amount, 0 to 100, at most 4 decimals. */
  @Money({ required: true, min: 0, max: 100 }) Rate: number;
  /** The platform's integer exemption code; 1 (None) unless given. */
  @Integer({ min: 1, max: 1000 }) ExemptionReason?: number | null;
  @Text({ long: true }) Description?: string | null;
  /**
   * The EN 16931 VAT category of e-invoices (BT-151, BT-118): S standard (Rate above 0), Z zero rated,
   * E exempt, AE reverse charge, K intra-community, G export, O outside the scope (these with Rate 0),
   * L and M (Canary Islands, Ceuta and Melilla).
   */
  @TextCode(VAT_CATEGORIES) VatCategoryCode?: string | null;
  /** Why E, AE, K, G and O lines carry no VAT (BT-120), e.g. "Reverse charge"; these need it or the code. */
  @Text() VatExemptionReasonText?: string | null;
  /** The VATEX code of that reason (BT-121), e.g. VATEX-EU-AE. */
  @Text() VatExemptionReasonCode?: string | null;
}
