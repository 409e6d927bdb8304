import assert from 'node:assert/strict';
import type { AnyClass } from '../../src/common/columns.js';
import { ALL_OPERATIONS, recordDefinitions, type RecordDefinition, type RecordOperation } from '../../src/common/record-definition.js';
import { referencesOf } from '../../src/common/validation/fields.js';
import { fieldsOf, pathOf, validValue } from './record-walker.js';
import type { TestApp } from './test-app.js';

// Valid records of any record type, made from its DTO's rules alone (the records its references name
// are made first), so that suites walking every type need no per-type fixture. The field rules and
// valid values are record-walker.ts's.

export { fieldsOf, pathOf, validValue, type FieldRules } from './record-walker.js';

export const offers = (definition: RecordDefinition<any>, operation: RecordOperation) => (definition.operations ?? ALL_OPERATIONS).includes(operation);

/** Makes records of any type through the API, remembering one id per entity. */
export class RecordMaker {
  readonly ids = new Map<AnyClass, number>();
  /** Every record made, in the order made (a record's references before it). */
  readonly made: Array<{ definition: RecordDefinition<any>; id: number; body: Record<string, unknown> }> = [];

  constructor(private readonly t: TestApp) {}

  /** A minimal valid body for a type: its required fields, references to records made first. */
  async baseBody(definition: RecordDefinition<any>, making = new Set<RecordDefinition<any>>()): Promise<Record<string, unknown>> {
    const dto = definition.dto!;
    const references = new Map(referencesOf(dto).map((reference) => [reference.property, reference.target()]));
    const body: Record<string, unknown> = {};
    for (const field of fieldsOf(dto)) {
      if (!field.required) continue;
      const target = references.get(field.name);
      if (target && !this.ids.has(target)) await this.recordOf(target, making);
      body[field.name] = validValue(field, this.ids, target);
    }
    return body;
  }

  /** The id of one record of an entity: made through the API, or the first listed for read-only types. */
  async recordOf(entity: AnyClass, making = new Set<RecordDefinition<any>>()): Promise<number> {
    const known = this.ids.get(entity);
    if (known) return known;
    const definition = recordDefinitions().find((d) => d.entity === entity)!;
    if (!definition.dto || !offers(definition, 'create') || making.has(definition)) {
      const first = (await this.t.get(`${pathOf(definition)}?size=1`)).body.Records[0];
      this.ids.set(entity, first.Id);
      return first.Id;
    }
    making.add(definition);
    const { id } = await this.createValid(definition, making);
    this.ids.set(entity, id);
    return id;
  }

  /**
   * A record of the type made from its minimal body; fields a domain rule asks for besides the
   * required ones (a password on create) are added from the 400's field names.
   */
  async createValid(definition: RecordDefinition<any>, making = new Set<RecordDefinition<any>>(), seen?: (answer: { status: number; body: unknown }) => void): Promise<{ id: number; body: Record<string, unknown> }> {
    const body = await this.baseBody(definition, making);
    const fields = new Map(fieldsOf(definition.dto!).map((field) => [field.name, field]));
    for (let attempt = 0; ; attempt++) {
      const res = await this.t.post(pathOf(definition), body);
      seen?.(res);
      if (res.status === 200) {
        this.made.push({ definition, id: res.body.Value.Id, body: { ...body } });
        return { id: res.body.Value.Id, body };
      }
      const named = ((res.body?.Errors ?? []) as Array<{ PropertyName: string }>).map((e) => e.PropertyName).filter((name) => fields.has(name) && !(name in body));
      assert.ok(res.status === 400 && named.length && attempt < 3, `${definition.name}: ${res.text}`);
      for (const name of named) body[name] = validValue(fields.get(name)!, this.ids, undefined);
    }
  }
}
