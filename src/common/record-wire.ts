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

  constructor(private readonly plan: RecordPlan, private readonly definition: RecordDefinition<any>) {
    this.shown = new Set(plan.outputs.map(([name]) => name));
    this.lists = Object.keys(definition.lists ?? {});
  }

  /** A row read with the plan's select list as its wire record. */
  toWire(row: readonly unknown[]): WireRecord {
    const record: WireRecord = {};
    const outputs = this.plan.outputs;
    for (let i = 0; i < outputs.length; i++) record[outputs[i][0]] = toWire(outputs[i][1], row[i]);
    (record as Record<symbol, unknown>)[VERSION] = row[outputs.length];
    for (const name of this.lists) (record[name] as number[]).sort((a, b) => a - b);
    const computed = this.definition.computed;
    if (computed) for (const name in computed) record[name] = computed[name](record);
    record.ToStringText = this.definition.toStringText(record);
    record.LocalizationDetails = null;
    record.CustomFields = null;
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
