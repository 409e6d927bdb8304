// The ledger entries the service writes itself (docs/api.md §10.1, docs/settlement.md "Invoices are
// ledger entries too"): an invoice's debit, a credit note's credit and a void's credit. They make
// Balance what the customer owes; they are not payments or refunds, and no client writes, changes or
// deletes one.

/** The Code of the entry an issued invoice writes (Debit = its TotalAmount). */
export const INVOICE_CODE = 'INV';
/** The Code of the entry a credit note writes (Credit = −its TotalAmount). */
export const CREDIT_NOTE_CODE = 'CRN';
/** The Code of the entry voiding an invoice writes (Credit = its TotalAmount). */
export const VOID_CODE = 'VOID';

export const SERVICE_CODES: readonly string[] = [INVOICE_CODE, CREDIT_NOTE_CODE, VOID_CODE];

/** Whether a Code is one of the service's own, as a client might spell it (trimmed, any case). */
export function isServiceCode(code: unknown): boolean {
  return typeof code === 'string' && SERVICE_CODES.includes(code.trim().toUpperCase());
}
