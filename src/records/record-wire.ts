import type { RecordDefinition, WireRecord } from './record-definition.js';
import type { RecordPlan } from './record-plan.js';
import { VERSION } from './versions.js';
import { toWire } from './wire-values.js';

/**
 * Rows to wire records (docs/api.md §1.1): the plan's outputs converted by kind, the version under a
 * symbol for the ETag, then the computed fields and the common extras.
 */
export class RecordWireMapper {
  private readonly shown: ReadonlySet<string>;
  private readonly lists: readonly string[];
  private readonly readRow: RowReader;

  constructor(
    private readonly plan: RecordPlan,
    private readonly definition: RecordDefinition<any>,
  ) {
    this.shown = new Set(plan.outputs.map(([name]) => name));
    this.lists = Object.keys(definition.lists ?? {});
    this.readRow = compileRowReader(plan.outputs, Object.keys(definition.computed ?? {}));
  }

  /** A row read with the plan's select list as its wire record. */
  toWire(row: readonly unknown[]): WireRecord {
    const record = this.readRow(row, toWire, VERSION);
    for (const name of this.lists) (record[name] as number[]).sort((a, b) => a - b);
    const computed = this.definition.computed;
    if (computed) for (const name in computed) record[name] = computed[name](record);
    record.ToStringText = this.definition.toStringText(record);
    return record;
  }

  /**
   * The stored fields a create wrote (its column values and the id lists its request gave), as GET
   * shows them, without reading the row back.
   */
  written(id: number, values: Record<string, unknown>, request?: object): WireRecord {
    const record: WireRecord = { Id: id };
    for (const [name, value] of Object.entries(values)) {
      const column = this.plan.columns.get(name);
      if (column && this.shown.has(name) && value !== undefined && typeof value !== 'function') record[name] = toWire(column.kind, value);
    }
    for (const name of this.lists) {
      const listed = ((request as Record<string, unknown> | undefined)?.[name] as number[] | null | undefined) ?? [];
      record[name] = [...new Set(listed)].sort((a, b) => a - b);
    }
    return record;
  }
}

type RowReader = (row: readonly unknown[], convert: typeof toWire, version: symbol) => WireRecord;

/**
 * The function that makes a row its wire record in one object literal, every field in the plan's
 * order, then the computed fields and the common extras (filled in after): one shape per record type,
 * which V8 builds, and JSON.stringify walks, faster than a record whose properties are added one by
 * one (the list of 25 products spent a tenth of its CPU there). The names are the entity's property
 * names, quoted as JSON; nothing of a request reaches the generated code.
 */
function compileRowReader(outputs: RecordPlan['outputs'], computed: readonly string[]): RowReader {
  const names = new Set(outputs.map(([name]) => name));
  const fields = outputs.map(
    ([name, kind], i) =>
      `${JSON.stringify(name)}: ${kind === 'text' ? `row[${i}] ?? null` : `convert(${JSON.stringify(kind)}, row[${i}])`}`,
  );
  for (const name of [...computed, 'ToStringText']) if (!names.has(name)) fields.push(`${JSON.stringify(name)}: undefined`);
  fields.push('LocalizationDetails: null', 'CustomFields: null', `[version]: row[${outputs.length}]`);
  // eslint-disable-next-line @typescript-eslint/no-implied-eval -- generated from metadata only (above)
  return new Function('row', 'convert', 'version', `return { ${fields.join(', ')} };`) as RowReader;
}
