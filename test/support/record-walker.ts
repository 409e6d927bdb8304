import assert from 'node:assert/strict';
import { getMetadataStorage } from 'class-validator';
import type { AnyClass } from '../../src/records/columns.js';
import { ALL_OPERATIONS, type RecordDefinition, type RecordOperation } from '../../src/records/record-definition.js';
import { referencesOf } from '../../src/records/validation/fields.js';
import type { TestApp } from './test-app.js';
import { RecordTypes } from '../../src/records/record-types.js';

// Makes a valid record of any registered record type from its DTO's rules (required fields, references
// made first), so a suite can walk every record type, those added later included, without naming them.

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

let unique = 0;

/**
 * A valid date-time: a later one each time, two hours apart, and an end (a booking's ToTime) an hour
 * after the date before it, so records with times (bookings of one resource) do not collide.
 */
let dates = 0;
function validDate(name: string): string {
  const end = /^To[A-Z]/.test(name);
  if (!end) dates++;
  return new Date(Date.UTC(2030, 0, 1, 2 * dates + (end ? 1 : 0))).toISOString().slice(0, 19) + 'Z';
}

/** A valid value for a field, from its rules. */
export function validValue(field: FieldRules, ids: Map<AnyClass, number>, reference: AnyClass | undefined): unknown {
  const r = field.rules;
  if (reference) return ids.get(reference);
  if (r.has('isEmail')) return `walker.${++unique}.${Math.random().toString(36).slice(2)}@example.com`;
  if (r.has('minLength')) return 'a long enough password';
  if (/url$/i.test(field.name)) return 'https://192.0.2.1/walker';
  if (r.has('isString')) return `Walker ${field.name} ${++unique}`;
  if (r.has('isIn')) return (r.get('isIn')![0] as number[]).find((v) => v > 0) ?? (r.get('isIn')![0] as number[])[0];
  if (r.has('isInt')) return Math.max(1, r.has('min') ? Number(r.get('min')![0]) : 1);
  if (r.has('money') || r.has('isNumber')) return 10;
  if (r.has('isDate')) return validDate(field.name);
  if (r.has('isBoolean')) return false;
  if (r.has('isArray')) return [];
  return 'x';
}

export const pathOf = (definition: RecordDefinition<any>) => `/api/${definition.path}`;
export const operationsOf = (definition: RecordDefinition<any>): readonly RecordOperation[] => definition.operations ?? ALL_OPERATIONS;

/** Makes records of any type through the API. */
export class RecordWalker {
  readonly ids = new Map<AnyClass, number>();
  /** The body of the last record `create` made. */
  lastBody: Record<string, unknown> = {};

  constructor(protected readonly t: TestApp) {}

  /** A valid body for a new record of the type with `extra` fields (the fields a domain rule asks for added). */
  async validBody(definition: RecordDefinition<any>, extra: Record<string, unknown> = {}): Promise<Record<string, unknown>> {
    const body = await this.baseBody(definition);
    const fields = new Map(fieldsOf(definition.dto!).map((field) => [field.name, field]));
    for (const name of this.askedFor.get(definition) ?? []) body[name] = validValue(fields.get(name)!, this.ids, undefined);
    return { ...body, ...extra };
  }

  private readonly askedFor = new Map<RecordDefinition<any>, string[]>();

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

  /** The id of one record of an entity (made once): through the API, or the first listed for read-only types. */
  async recordOf(entity: AnyClass, making = new Set<RecordDefinition<any>>()): Promise<number> {
    const known = this.ids.get(entity);
    if (known) return known;
    const definition = this.t.app
      .get(RecordTypes)
      .definitions()
      .find((d) => d.entity === entity)!;
    if (!definition.dto || !operationsOf(definition).includes('create') || making.has(definition)) {
      const first = (await this.t.get(`${pathOf(definition)}?size=1`)).body.Records[0];
      assert.ok(first, `${definition.name}: no record to name (a read-only type whose records only a domain rule makes)`);
      this.ids.set(entity, first.Id);
      return first.Id;
    }
    making.add(definition);
    const { id } = await this.create(definition, making);
    this.ids.set(entity, id);
    return id;
  }

  /**
   * A new record of the type from its minimal body; fields a domain rule asks for besides the
   * required ones (a password on create) are added from the 400's field names.
   */
  async create(
    definition: RecordDefinition<any>,
    making = new Set<RecordDefinition<any>>(),
    extra: Record<string, unknown> = {},
    seen?: (answer: { status: number; body: unknown }) => void,
  ): Promise<{ id: number; body: Record<string, unknown> }> {
    const body = { ...(await this.baseBody(definition, making)), ...extra };
    const fields = new Map(fieldsOf(definition.dto!).map((field) => [field.name, field]));
    if (definition.name === 'Checkin') await this.wayIn(body, fields.get('ToTime')!);
    for (let attempt = 0; ; attempt++) {
      const res = await this.t.post(pathOf(definition), body);
      seen?.(res);
      if (res.status === 200) this.lastBody = body;
      if (res.status === 200) return { id: res.body.Value.Id, body };
      const named = ((res.body?.Errors ?? []) as Array<{ PropertyName: string }>)
        .map((e) => e.PropertyName)
        .filter((name) => fields.has(name) && !(name in body));
      assert.ok(res.status === 400 && named.length && attempt < 3, `${definition.name}: ${res.text}`);
      for (const name of named) body[name] = validValue(fields.get(name)!, this.ids, undefined);
      this.askedFor.set(definition, [...(this.askedFor.get(definition) ?? []), ...named]);
    }
  }

  /**
   * A check-in needs a way in (docs/presence.md): the business sells pay-as-you-go passes at the door, and
   * the check-in is closed (a ToTime), so the walker's check-ins of one customer never meet as open ones.
   */
  private async wayIn(body: Record<string, unknown>, toTime: FieldRules): Promise<void> {
    body.ToTime ??= validValue(toTime, this.ids, undefined);
    if (this.payAsYouGo.has(Number(body.BusinessId))) return;
    const currency = (await this.t.get(`/api/sys/businesses/${body.BusinessId}`)).body.CurrencyId;
    const made = await this.t.post('/api/billing/timepasses', {
      BusinessId: body.BusinessId,
      Name: 'Walker door pass',
      Price: 5,
      CurrencyId: currency,
      PaygContacts: true,
    });
    assert.equal(made.status, 200, made.text);
    this.payAsYouGo.add(Number(body.BusinessId));
  }

  private readonly payAsYouGo = new Set<number>();

  /**
   * A record of the type to act on: a new one when the type offers create, else one listed; undefined
   * for a read-only type none of whose records exist yet (invoice lines, billing runs, credit use
   * history: only a domain rule makes them).
   */
  async someRecord(definition: RecordDefinition<any>): Promise<number | undefined> {
    if (definition.dto && operationsOf(definition).includes('create')) return (await this.create(definition)).id;
    const first = (await this.t.get(`${pathOf(definition)}?size=1`)).body.Records?.[0];
    return first?.Id;
  }
}
