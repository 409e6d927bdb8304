import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { fieldsOf, operationsOf, pathOf, RecordWalker } from './support/record-walker.js';
import { isLongTextColumn } from '../src/records/columns.js';
import { appPerSuite, onMySql, type HttpResponse } from './support/test-app.js';
import { RecordTypes } from '../src/records/record-types.js';

// docs/api.md §1: lengths are in Unicode characters, whatever their size in UTF-8. Every long-text field
// of every record type (those declared later included) holds 65,535 characters of any script — 2-byte
// "é", 3-byte "中", and 4-byte emoji, each one character — read back equal on SQLite and MariaDB; 65,536
// is a 400 naming the field, with nothing written. A 255-character name holds 255 "中" or emoji.

const LONG = 65_535;
const SCRIPTS = ['\u00e9', '\u4e2d', '\u{1F600}'];

describe('long text is counted in characters, on both databases', () => {
  const t = appPerSuite();

  it('stores 65,535 characters of any script in every long-text field, and refuses 65,536 naming the field', async () => {
    const walker = new RecordWalker(t);
    const walked: string[] = [];
    for (const definition of t.app.get(RecordTypes).definitions()) {
      if (!definition.dto || !operationsOf(definition).includes('create')) continue;
      const path = pathOf(definition);
      const longFields = fieldsOf(definition.dto).filter((f) => Number(f.rules.get('maxLength')?.[0]) === LONG);
      if (longFields.length) await walker.create(definition); // learns the fields a domain rule asks for
      for (const field of longFields) {
        for (const unit of SCRIPTS) {
          const text = unit.repeat(LONG);
          const created = await t.post(path, { ...(await walker.validBody(definition)), [field.name]: text });
          assert.equal(created.status, 200, `${definition.name}.${field.name} with 65,535 ${unit}: ${created.text.slice(0, 300)}`);
          const id = created.body.Value.Id;
          const read = (await t.get(`${path}/${id}`)).body;
          assert.equal([...read[field.name]].length, LONG, `${definition.name}.${field.name} read back`);
          assert.ok(read[field.name] === text, `${definition.name}.${field.name} read back equal`);
          const updatable = fieldsOf(definition.updateDto ?? definition.dto).some((f) => f.name === field.name);
          if (operationsOf(definition).includes('update') && updatable) {
            const mixed = [...'a\u00e9\u4e2d\u{1F600}'.repeat(LONG)].slice(0, LONG).join('');
            const updated = await t.put(`${path}/${id}`, { ...read, [field.name]: mixed });
            assert.equal(updated.status, 200, `${definition.name}.${field.name} PUT: ${updated.text.slice(0, 300)}`);
            assert.ok((await t.get(`${path}/${id}`)).body[field.name] === mixed, `${definition.name}.${field.name} PUT read back equal`);
          }
        }
        const table = await t.get(`${path}?size=1`);
        const before = table.body.TotalItems;
        for (const unit of ['a', ...SCRIPTS]) {
          const refused = await t.post(path, { ...(await walker.validBody(definition)), [field.name]: unit.repeat(LONG + 1) });
          assert.equal(refused.status, 400, `${definition.name}.${field.name} with 65,536 ${unit}`);
          assert.equal(refused.body.Errors[0].PropertyName, field.name);
          assert.match(refused.body.Message, new RegExp(`^${field.name}: `));
        }
        assert.equal((await t.get(`${path}?size=1`)).body.TotalItems, before, `${definition.name}: nothing written`);
        walked.push(`${definition.name}.${field.name}`);
      }
    }
    assert.ok(walked.length >= 12, walked.join(', '));
  });

  it('holds 255 "中" or emoji in a 255-character name and refuses 256', async () => {
    const walker = new RecordWalker(t);
    const walked: string[] = [];
    for (const definition of t.app.get(RecordTypes).definitions()) {
      if (!definition.dto || !operationsOf(definition).includes('create')) continue;
      const field = fieldsOf(definition.dto).find(
        (f) =>
          f.required &&
          f.rules.has('isString') &&
          !f.rules.has('isEmail') &&
          !f.rules.has('minLength') &&
          Number(f.rules.get('maxLength')?.[0]) === 255 &&
          !/url$/i.test(f.name),
      );
      if (!field) continue;
      await walker.create(definition);
      const path = pathOf(definition);
      for (const unit of ['\u4e2d', '\u{1F600}', '\u{1F469}\u200D\u{1F4BB}'.slice(0, 2)]) {
        const text = unit.repeat(255);
        const res: HttpResponse = await t.post(path, { ...(await walker.validBody(definition)), [field.name]: text });
        assert.equal(res.status, 200, `${definition.name}.${field.name}: ${res.text.slice(0, 300)}`);
        assert.ok((await t.get(`${path}/${res.body.Value.Id}`)).body[field.name] === text, `${definition.name}.${field.name} read back`);
        const refused: HttpResponse = await t.post(path, { ...(await walker.validBody(definition)), [field.name]: unit.repeat(256) });
        assert.equal(refused.status, 400, `${definition.name}.${field.name} 256`);
        assert.equal(refused.body.Errors[0].PropertyName, field.name);
      }
      walked.push(`${definition.name}.${field.name}`);
    }
    assert.ok(walked.length >= 10, walked.join(', '));
  });

  it(
    'makes every long-text column of every entity MEDIUMTEXT on MySQL/MariaDB, tables of later migrations included',
    { skip: !onMySql && 'MySQL/MariaDB only' },
    async () => {
      const columns = await t.db.query<{ t: string; c: string; type: string }>(
        'SELECT TABLE_NAME AS t, COLUMN_NAME AS c, DATA_TYPE AS type FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = DATABASE()',
      );
      const typeOf = new Map(columns.map((row) => [`${row.t}.${row.c}`, String(row.type).toLowerCase()]));
      const checked: string[] = [];
      for (const metadata of t.db.dataSource.entityMetadatas) {
        for (const column of metadata.columns) {
          const prototype = typeof column.target === 'function' ? column.target.prototype : undefined;
          if (!prototype || !isLongTextColumn(prototype, column.propertyName)) continue;
          const key = `${metadata.tableName}.${column.databaseName}`;
          assert.equal(typeOf.get(key), 'mediumtext', key);
          checked.push(key);
        }
      }
      assert.ok(checked.length >= 15, checked.join(', '));
    },
  );
});
