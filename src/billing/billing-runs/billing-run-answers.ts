import { pickProperties, type Schema } from '../../http/openapi.js';

// The Value of COWORKER_BILL_RUN in the OpenAPI document (docs/billing.md, "Running it"), from the
// schemas of the records it is made of, so the two never disagree.

/** Fields of an invoice line a preview does not have: it writes nothing, so no record fields. */
const NOT_IN_A_PREVIEW = new Set([
  'Id',
  'UniqueId',
  'CoworkerInvoiceId',
  'CreatedOn',
  'UpdatedOn',
  'UpdatedBy',
  'IsNew',
  'SystemId',
  'ToStringText',
  'LocalizationDetails',
  'CustomFields',
]);
const PREVIEW_LINE_REQUIRED = [
  'Description',
  'Quantity',
  'UnitPrice',
  'SubTotal',
  'TaxRateId',
  'TaxRate',
  'TaxAmount',
  'TotalAmount',
  'PeriodFrom',
  'PeriodTo',
  'Position',
];

export function billRunValue(schemas: Readonly<Record<string, Schema>>): Schema {
  const line = (schemas.CoworkerInvoiceLine?.properties ?? {}) as Record<string, Schema>;
  const previewLine: Schema = {
    type: 'object',
    required: PREVIEW_LINE_REQUIRED,
    properties: Object.fromEntries(Object.entries(line).filter(([name]) => !NOT_IN_A_PREVIEW.has(name))),
    description: 'A line the run would make: every field of a CoworkerInvoiceLine but the record fields.',
  };
  return {
    anyOf: [
      {
        type: 'array',
        description: 'The invoices made.',
        items: pickProperties(schemas.CoworkerInvoice, ['Id', 'CoworkerId', 'InvoiceNumber', 'TotalAmount']),
      },
      {
        type: 'array',
        description: 'With Preview: the invoices the run would make now.',
        items: pickProperties(schemas.CoworkerInvoice, ['CoworkerId', 'CurrencyId', 'TotalAmount', 'TaxAmount'], {
          Lines: { type: 'array', items: previewLine },
        }),
      },
    ],
  };
}
