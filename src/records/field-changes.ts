import type { RecordDefinition, WireRecord } from './record-definition.js';

export type ChangeAction = 'Create' | 'Update' | 'Delete';

/** One changed field of a change-log entry. */
export interface FieldChange {
  Field: string;
  From: unknown;
  To: unknown;
}

/** Request fields whose values are never recorded: an entry names them, with From and To null. */
export const WRITE_ONLY_FIELDS: readonly string[] = ['Password', 'TwoFactorSecret', 'Secret'];

/** Fields every record carries that the machinery sets (or derives), not the request. */
const UNTRACKED = new Set([
  'Id',
  'Version',
  'UniqueId',
  'CreatedOn',
  'UpdatedOn',
  'UpdatedBy',
  'IsNew',
  'ToStringText',
  'LocalizationDetails',
  'CustomFields',
]);

/** Whether a field of a wire record is stored by the record itself (not looked up or derived). */
function isTracked(definition: RecordDefinition<any>, field: string): boolean {
  return (
    !UNTRACKED.has(field) && !(definition.reads && field in definition.reads) && !(definition.computed && field in definition.computed)
  );
}

const same = (a: unknown, b: unknown) => a === b || JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
const isSet = (value: unknown) => value !== null && value !== undefined && !(Array.isArray(value) && value.length === 0);

/**
 * The changed fields of a create (every field set), an update (every field whose stored value
 * differs) or a delete (none), from the record as it reads before and after the change. Write-only
 * fields the request gave are named without their values.
 */
export function fieldChanges(
  definition: RecordDefinition<any>,
  action: ChangeAction,
  before: WireRecord | null,
  after: WireRecord | null,
  request?: object,
): FieldChange[] {
  if (action === 'Delete') return [];
  const changes: FieldChange[] = [];
  const fields = Object.keys(after ?? {}).filter((field) => isTracked(definition, field));
  for (const field of fields) {
    const to = after![field];
    if (action === 'Create' ? isSet(to) : !same(before?.[field], to))
      changes.push({ Field: field, From: action === 'Create' ? null : (before?.[field] ?? null), To: to });
  }
  const given = (request ?? {}) as Record<string, unknown>;
  for (const field of WRITE_ONLY_FIELDS) {
    if (isSet(given[field]) && !fields.includes(field)) changes.push({ Field: field, From: null, To: null });
  }
  return changes;
}
