import assert from 'node:assert/strict';
import { getMetadataStorage } from 'class-validator';
import type { AnyClass } from '../../src/common/columns.js';
import { ALL_OPERATIONS, recordDefinitions, type RecordDefinition, type RecordOperation } from '../../src/common/record-definition.js';
import { referencesOf } from '../../src/common/validation/fields.js';
import type { TestApp } from './test-app.js';

// Valid records of any record type, made from its DTO's rules alone (the records its references name
// are made first), so that suites walking every type need no per-type fixture.

/** A field's rules as its DTO declares them. */
export interface FieldRules {
  name: string;
  required: boolean;
  rules: Map<string, unknown[]>;
}

export function fieldsOf(dto: AnyClass): FieldRules[] {
  const byName = new Map<string, FieldRules>();
  for (const meta of getMetadataStorage().getTargetValidationMetadatas(dto, '', true, false)) {
    const field = byName.get(meta.propertyName) ?? { name: meta.propertyName, required: false, rules: new Map() };
    byName.set(meta.propertyName, field);
    const rule = meta.type === 'customValidation' ? String(meta.name) : meta.type;
    if (rule === 'isDefined') field.required = true;
    field.rules.set(rule, (meta.constraints as unknown[] | undefined) ?? []);
  }
  return [...byName.values()];
}

/** A valid value for a field, from its rules (the id made for it when it is a reference). */
export function validValue(field: FieldRules, ids: Map<AnyClass, number>, reference: AnyClass | undefined): unknown {
  const r = field.rules;
  if (reference) return ids.get(reference);
  if (r.has('isEmail')) return `walker.${Math.random().toString(36).slice(2)}@example.com`;
  if (r.has('minLength')) return 'a long enough password';
  // An address checked by the service rather than a rule (a webhook's URL): one that is never reached.
  if (/url$/i.test(field.name)) return 'https://192.0.2.1/walker';
  if (r.has('isString')) return `Walker ${field.name}`;
  if (r.has('isIn')) return (r.get('isIn')![0] as number[]).find((v) => v > 0) ?? (r.get('isIn')![0] as number[])[0];
  if (r.has('isInt')) return Math.max(1, r.has('min') ? Number(r.get('min')![0]) : 1);
  if (r.has('money') || r.has('isNumber')) return 10;
  if (r.has('isDate')) return '2030-01-01T00:00:00Z';
  if (r.has('isBoolean')) return false;
  if (r.has('isArray')) return [];
  return 'x';
}

export const pathOf = (definition: RecordDefinition<any>) => `/api/${definition.path}`;
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
