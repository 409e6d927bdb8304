import { Inject, Injectable } from '@nestjs/common';
import { referencesOf } from '../../records/validation/fields.js';
import { RecordValidationException, refusal } from '../../records/errors.js';
import type { RecordDefinition, WireRecord } from '../../records/record-definition.js';
import { RecordTypes } from '../../records/record-types.js';
import { TaxRate } from './tax-rate.entity.js';
import type { DeleteContext, RecordRules, SaveContext, SaveDecision } from '../../records/record-rules.js';
import { Database } from '../../persistence/database.js';
import type { TaxRateDto } from './dto/tax-rate.dto.js';
import { TaxRatesRepository } from './tax-rates.repository.js';

/** Tax rates (docs/billing.md): the business stays; a rate in use is not deleted. */
@Injectable()
export class TaxRatesRules implements RecordRules<TaxRateDto> {
  @Inject(Database) private readonly db: Database;
  @Inject(RecordTypes) private readonly types: RecordTypes;
  @Inject(TaxRatesRepository) private readonly rows: TaxRatesRepository;

  async beforeSave({ values, existing }: SaveContext<TaxRateDto>): Promise<SaveDecision> {
    if (existing && values.BusinessId !== undefined && Number(values.BusinessId) !== Number(existing.BusinessId)) {
      throw RecordValidationException.field(
        'BusinessId',
        `The business of a tax rate cannot change (it belongs to Business ${existing.BusinessId}).`,
        values.BusinessId,
      );
    }
    refuseUnfitCategory({ ...(existing ?? {}), ...values });
    return { values: { ...values } };
  }

  async beforeDelete(record: WireRecord, { tx }: DeleteContext): Promise<void> {
    const { db } = this;
    const users: string[] = [];
    for (const definition of this.types.definitions()) {
      const metadata = db.dataSource.getMetadata(definition.entity);
      const columns = namingColumns(definition, (property) => Boolean(metadata.findColumnWithPropertyName(property)));
      if (!columns.length) continue;
      if (await this.rows.isNamedIn(definition.entity, columns, record.Id, tx)) users.push(definition.name);
    }
    if (users.length) throw refusal(`TaxRate ${record.Id} cannot be deleted because ${users.join(' and ')} records name it.`);
  }
}

/** Categories whose lines carry no VAT, so a rate of 0 and the reason why (docs/api.md §14.2). */
const UNTAXED_WITH_REASON = ['E', 'AE', 'K', 'G', 'O'];
/** Categories that take no exemption reason. */
const WITHOUT_REASON = ['S', 'Z', 'L', 'M'];

/**
 * A VAT category must fit the rate and the reason (docs/api.md §14.2, docs/einvoices.md), as the
 * tax rate reads after the write: S taxes (Rate above 0); Z, E, AE, K, G and O do not (Rate 0); E, AE,
 * K, G and O say why (a reason code or text); S, Z, L and M give none. A 400 naming the field otherwise.
 */
function refuseUnfitCategory(rate: Record<string, unknown>): void {
  const category = rate.VatCategoryCode as string | null | undefined;
  if (!category) return;
  const percent = Number(rate.Rate);
  const has = (field: string) => typeof rate[field] === 'string' && rate[field].trim() !== '';
  if (category === 'S' && !(percent > 0))
    throw RecordValidationException.field('Rate', 'A tax rate of VAT category S (standard) needs a Rate above 0.', rate.Rate);
  if (category !== 'S' && category !== 'L' && category !== 'M' && percent !== 0) {
    throw RecordValidationException.field('Rate', `A tax rate of VAT category ${category} needs a Rate of 0.`, rate.Rate);
  }
  if (UNTAXED_WITH_REASON.includes(category) && !has('VatExemptionReasonText') && !has('VatExemptionReasonCode')) {
    throw RecordValidationException.field(
      'VatExemptionReasonText',
      `A tax rate of VAT category ${category} needs an exemption reason (VatExemptionReasonText or VatExemptionReasonCode).`,
      rate.VatExemptionReasonText ?? null,
    );
  }
  if (WITHOUT_REASON.includes(category)) {
    for (const field of ['VatExemptionReasonText', 'VatExemptionReasonCode']) {
      if (has(field))
        throw RecordValidationException.field(field, `A tax rate of VAT category ${category} takes no exemption reason.`, rate[field]);
    }
  }
}

/**
 * The stored columns of a record type whose body names a tax rate (a product's three, a tariff's, a
 * resource's): a tax rate any of them names cannot be deleted. Billed lines name theirs through a
 * foreign key, which refuses the delete by itself.
 */
function namingColumns(definition: RecordDefinition<any>, isStored: (property: string) => boolean): string[] {
  return [
    ...new Set(
      [definition.dto, definition.updateDto]
        .flatMap((dto) => (dto ? referencesOf(dto) : []))
        .filter((reference) => !reference.list && reference.target() === TaxRate && isStored(reference.property))
        .map((reference) => reference.property),
    ),
  ];
}
