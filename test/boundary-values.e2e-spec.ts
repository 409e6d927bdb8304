import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { getMetadataStorage } from 'class-validator';
import type { AnyClass } from '../src/common/columns.js';
import { recordDefinitions, type RecordDefinition } from '../src/common/record-definition.js';
import { referencesOf } from '../src/common/validation/fields.js';
import { appPerSuite } from './support/test-app.js';

// Every record type's writable fields, taken from its DTO's rules, sent with boundary values (the
// least and the most a rule allows and just past each, nulls, wrong types) on create and on update:
// each answer is a 2xx or a 4xx, never a 5xx. A new record type is walked without changing this file.

/** A field's rules as its DTO declares them. */
interface FieldRules {
  name: string;
  required: boolean;
  rules: Map<string, unknown[]>;
}

function fieldsOf(dto: AnyClass): FieldRules[] {
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

const BIG_TEXT = (n: number, unit = 'a') => unit.repeat(n);
const MONEY_MAX = 9_999_999_999_999.9999;

/** Boundary values for a field, by its rules. */
function boundaries(field: FieldRules): unknown[] {
  const r = field.rules;
  const values: unknown[] = [null, {}];
  if (r.has('maxLength')) {
    const max = Number(r.get('maxLength')![0]);
    values.push('', BIG_TEXT(max), BIG_TEXT(max + 1), BIG_TEXT(Math.min(max, 20_000), '\u{1F600}'), BIG_TEXT(Math.floor(max / 2) + 1, '\u00e9'));
  }
  if (r.has('isEmail')) values.push(`${'a'.repeat(64)}@${'b'.repeat(180)}.example.com`, ' Spaced@Example.com ', `${'\u0130'.repeat(120)}@example.com`);
  if (r.has('isInt') && !r.has('isIn')) {
    const min = r.has('min') ? Number(r.get('min')![0]) : -(2 ** 31);
    const max = r.has('max') ? Number(r.get('max')![0]) : 2 ** 31;
    values.push(min, max, min - 1, max + 1, 1.5, 'x');
  }
  if (r.has('isIn')) {
    const allowed = (r.get('isIn')![0] as number[]).slice().sort((a, b) => a - b);
    values.push(allowed[0], allowed[allowed.length - 1], allowed[allowed.length - 1] + 1, allowed[0] - 1);
  }
  if (r.has('money') || r.has('isNumber')) values.push(MONEY_MAX, -MONEY_MAX, 1e13, -1e13, 1e-4, 1e-5, 1.5e-7, 1e300);
  if (r.has('isDate')) {
    values.push('1000-01-01T00:00:00Z', '9999-12-31T23:59:59Z', '0999-12-31T23:59:59Z', '1000-01-01T00:30:00+01:00', '9999-12-31T23:30:00-01:00');
  }
  if (r.has('isBoolean')) values.push(true, 'FALSE', 'yes');
  if (r.has('isArray')) {
    const max = r.has('arrayMaxSize') ? Number(r.get('arrayMaxSize')![0]) : 1000;
    values.push([0], [2 ** 31 - 1], [2 ** 31], Array.from({ length: max }, (_, i) => i + 1), Array.from({ length: max + 1 }, (_, i) => i + 1), ['Product-List']);
  }
  if (r.has('matches')) values.push(BIG_TEXT(16, 'A'), BIG_TEXT(26, 'A'), BIG_TEXT(128, 'A'));
  return values;
}

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

/** A valid value for a required field, from its rules. */
function validValue(field: FieldRules, ids: Map<AnyClass, number>, reference: AnyClass | undefined): unknown {
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
  if (r.has('isDate')) return validDate(field.name);
  if (r.has('isBoolean')) return false;
  if (r.has('isArray')) return [];
  return 'x';
}

describe('boundary values on every writable field of every record type', () => {
  const t = appPerSuite();
  const ids = new Map<AnyClass, number>();
  const serverErrors: string[] = [];
  let sent = 0;


  const pathOf = (definition: RecordDefinition<any>) => `/api/${definition.path}`;
  const operations = (definition: RecordDefinition<any>) => definition.operations ?? ['list', 'get', 'create', 'update', 'delete'];

  async function send(method: string, path: string, body: unknown) {
    const res = await t.request(method, path, { body });
    sent++;
    if (res.status >= 500) serverErrors.push(`${method} ${path} ${JSON.stringify(body).slice(0, 160)} -> ${res.status}`);
    return res;
  }

  /** A minimal valid body for a type: its required fields, references to records made first. */
  async function baseBody(definition: RecordDefinition<any>, making: Set<RecordDefinition<any>>): Promise<Record<string, unknown>> {
    const dto = definition.dto!;
    const references = new Map(referencesOf(dto).map((reference) => [reference.property, reference.target()]));
    const body: Record<string, unknown> = {};
    for (const field of fieldsOf(dto)) {
      if (!field.required) continue;
      const target = references.get(field.name);
      if (target && !ids.has(target)) await recordOf(target, making);
      body[field.name] = validValue(field, ids, target);
    }
    return body;
  }

  /** The id of one record of an entity: made through the API, or the first listed for read-only types. */
  async function recordOf(entity: AnyClass, making = new Set<RecordDefinition<any>>()): Promise<number> {
    const known = ids.get(entity);
    if (known) return known;
    const definition = recordDefinitions().find((d) => d.entity === entity)!;
    if (!definition.dto || !operations(definition).includes('create') || making.has(definition)) {
      const first = (await t.get(`${pathOf(definition)}?size=1`)).body.Records[0];
      ids.set(entity, first.Id);
      return first.Id;
    }
    making.add(definition);
    const { id } = await createValid(definition, making);
    ids.set(entity, id);
    return id;
  }

  /**
   * A record of the type made from its minimal body; fields a domain rule asks for besides the
   * required ones (a password on create) are added from the 400's field names.
   */
  async function createValid(definition: RecordDefinition<any>, making: Set<RecordDefinition<any>>): Promise<{ id: number; body: Record<string, unknown> }> {
    const body = await baseBody(definition, making);
    const fields = new Map(fieldsOf(definition.dto!).map((field) => [field.name, field]));
    for (let attempt = 0; ; attempt++) {
      const res = await send('POST', pathOf(definition), body);
      if (res.status === 200) return { id: res.body.Value.Id, body };
      const named = ((res.body?.Errors ?? []) as Array<{ PropertyName: string }>).map((e) => e.PropertyName).filter((name) => fields.has(name) && !(name in body));
      assert.ok(res.status === 400 && named.length && attempt < 3, `${definition.name}: ${res.text}`);
      for (const name of named) body[name] = validValue(fields.get(name)!, ids, undefined);
    }
  }

  it('answers every create and update with a 2xx or a 4xx', async () => {
    const walked: string[] = [];
    for (const definition of recordDefinitions()) {
      if (!definition.dto) continue;
      const path = pathOf(definition);
      const canCreate = operations(definition).includes('create');
      const canUpdate = operations(definition).includes('update');
      if (!canCreate && !canUpdate) continue;
      const made = canCreate ? await createValid(definition, new Set()) : { id: await recordOf(definition.entity), body: await baseBody(definition, new Set()) };
      const { id, body: base } = made;
      const stored = (await t.get(`${path}/${id}`)).body;
      for (const dto of new Set([definition.dto, definition.updateDto].filter((d): d is NonNullable<typeof d> => Boolean(d)))) {
        for (const field of fieldsOf(dto)) {
          const values = boundaries(field);
          // Creates and updates of one type go in small parallel batches (as clients would send them).
          for (let i = 0; i < values.length; i += 8) {
            await Promise.all(values.slice(i, i + 8).flatMap((value) => [
              ...(canCreate && dto === definition.dto ? [send('POST', path, { ...base, [field.name]: value })] : []),
              // The record as read, with the one field changed: what a client PUTs back.
              ...(canUpdate ? [send('PUT', path, { ...stored, Id: id, [field.name]: value })] : []),
            ]));
          }
        }
      }
      walked.push(definition.name);
      if (process.env.WALK_TIMES) console.log(definition.name, sent, Math.round(performance.now()));
    }
    assert.ok(walked.length >= 15, walked.join(', '));
    assert.ok(sent > 1000, `only ${sent} requests`);
    assert.deepEqual(serverErrors, [], `${serverErrors.length} server errors of ${sent} requests`);
  });
});
