import { pickProperties, type Schema } from '../../http/openapi.js';

// The Value of COWORKER_INVOICE_CANCEL in the OpenAPI document (docs/settlement.md), from the invoice's
// own schema.

export function creditNotesValue(schemas: Readonly<Record<string, Schema>>): Schema {
  const invoice = schemas.CoworkerInvoice;
  return {
    anyOf: [
      { type: 'array', description: 'The credit notes made.', items: pickProperties(invoice, ['Id']) },
      {
        type: 'array',
        description: 'With Preview: the credit notes it would make.',
        items: pickProperties(invoice, ['CoworkerId', 'CurrencyId', 'TotalAmount', 'TaxAmount', 'CreditNote', 'OriginalInvoiceGuid'], {
          CoworkerInvoiceId: { type: 'integer', format: 'int32' },
        }),
      },
    ],
  };
}
