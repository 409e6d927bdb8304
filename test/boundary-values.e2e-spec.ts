import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { RecordDefinition } from '../src/records/record-definition.js';
import { appPerSuite } from './support/test-app.js';
import { fieldsOf, pathOf, RecordMaker, type FieldRules } from './support/valid-records.js';
import { RecordTypes } from '../src/records/record-types.js';

// Every record type's writable fields, taken from its DTO's rules, sent with boundary values (the
// least and the most a rule allows and just past each, nulls, wrong types) on create and on update:
// each answer is a 2xx or a 4xx, never a 5xx. A new record type is walked without changing this file.

const BIG_TEXT = (n: number, unit = 'a') => unit.repeat(n);
const MONEY_MAX = 9_999_999_999_999.9999;

/** Boundary values for a field, by its rules. */
function boundaries(field: FieldRules): unknown[] {
  const r = field.rules;
  const values: unknown[] = [null, {}];
  if (r.has('maxLength')) {
    const max = Number(r.get('maxLength')![0]);
    values.push(
      '',
      BIG_TEXT(max),
      BIG_TEXT(max + 1),
      BIG_TEXT(Math.min(max, 20_000), '\u{1F600}'),
      BIG_TEXT(Math.floor(max / 2) + 1, '\u00e9'),
    );
  }
  if (r.has('isEmail'))
    values.push(`${'a'.repeat(64)}@${'b'.repeat(180)}.example.com`, ' Spaced@Example.com ', `${'\u0130'.repeat(120)}@example.com`);
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
    values.push(
      '1000-01-01T00:00:00Z',
      '9999-12-31T23:59:59Z',
      '0999-12-31T23:59:59Z',
      '1000-01-01T00:30:00+01:00',
      '9999-12-31T23:30:00-01:00',
    );
  }
  if (r.has('isBoolean')) values.push(true, 'FALSE', 'yes');
  if (r.has('isArray')) {
    const max = r.has('arrayMaxSize') ? Number(r.get('arrayMaxSize')![0]) : 1000;
    values.push(
      [0],
      [2 ** 31 - 1],
      [2 ** 31],
      Array.from({ length: max }, (_, i) => i + 1),
      Array.from({ length: max + 1 }, (_, i) => i + 1),
      ['Product-List'],
    );
  }
  if (r.has('matches')) values.push(BIG_TEXT(16, 'A'), BIG_TEXT(26, 'A'), BIG_TEXT(128, 'A'));
  return values;
}

describe('boundary values on every writable field of every record type', () => {
  const t = appPerSuite();
  const serverErrors: string[] = [];
  let sent = 0;

  const maker = new RecordMaker(t);
  const operations = (definition: RecordDefinition<any>) => definition.operations ?? ['list', 'get', 'create', 'update', 'delete'];

  async function send(method: string, path: string, body: unknown) {
    const res = await t.request(method, path, { body });
    sent++;
    if (res.status >= 500) serverErrors.push(`${method} ${path} ${JSON.stringify(body).slice(0, 160)} -> ${res.status}`);
    return res;
  }

  it('answers every create and update with a 2xx or a 4xx', async () => {
    const walked: string[] = [];
    for (const definition of t.app.get(RecordTypes).definitions()) {
      if (!definition.dto) continue;
      const path = pathOf(definition);
      const canCreate = operations(definition).includes('create');
      const canUpdate = operations(definition).includes('update');
      if (!canCreate && !canUpdate) continue;
      const made = canCreate
        ? await maker.createValid(definition, new Set(), (res) => {
            sent++;
            if (res.status >= 500) serverErrors.push(`POST ${path} (a valid body) -> ${res.status}`);
          })
        : { id: await maker.recordOf(definition.entity), body: await maker.baseBody(definition) };
      const { id, body: base } = made;
      const stored = (await t.get(`${path}/${id}`)).body;
      for (const dto of new Set([definition.dto, definition.updateDto].filter((d): d is NonNullable<typeof d> => Boolean(d)))) {
        for (const field of fieldsOf(dto)) {
          const values = boundaries(field);
          // Creates and updates of one type go in small parallel batches (as clients would send them).
          for (let i = 0; i < values.length; i += 8) {
            await Promise.all(
              values.slice(i, i + 8).flatMap((value) => [
                ...(canCreate && dto === definition.dto ? [send('POST', path, { ...base, [field.name]: value })] : []),
                // The record as read, with the one field changed: what a client PUTs back.
                ...(canUpdate ? [send('PUT', path, { ...stored, Id: id, [field.name]: value })] : []),
              ]),
            );
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
