import { defineRecord } from '../../records/record-definition.js';
import { Business } from '../../kernel/businesses/business.entity.js';
import { BillingRun } from './billing-run.entity.js';

/** Billing runs (docs/billing.md): read with CoworkerInvoice-Read. */
export const billingRuns = defineRecord({
  name: 'BillingRun',
  path: 'billing/billingruns',
  entity: BillingRun,
  operations: ['list', 'get'],
  methodNotAllowed: true,
  readPermission: { entity: 'CoworkerInvoice', action: 'Read' },
  business: { column: 'BusinessId' },
  hidden: ['ErrorList'],
  reads: {
    Errors: { kind: 'text', sql: (q) => `${q.alias}.${q.id('ErrorList')}` },
    BusinessName: { from: () => Business, on: 'BusinessId', column: 'Name' },
  },
  computed: {
    Errors: (r) => (typeof r.Errors === 'string' && r.Errors ? JSON.parse(r.Errors) : []),
  },
  computedTypes: {
    Errors: {
      schema: {
        type: 'array',
        description: 'Read-only: the customers the run could not bill, and why.',
        items: {
          type: 'object',
          properties: { CoworkerId: { type: 'integer', format: 'int32' }, Message: { type: 'string' } },
          required: ['CoworkerId', 'Message'],
        },
      },
    },
  },
  toStringText: (r) => `${String(r.Trigger)} run of ${String(r.StartedOn)}`,
});

/**
 * Billing: the runs, their item sources (DueItemSources, exported for modules that add a source), the
 * COWORKER_BILL_RUN command, the raise route and the automatic run.
 */
