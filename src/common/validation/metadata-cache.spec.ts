import 'reflect-metadata';
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { getMetadataStorage, IsInt, IsString, validateSync } from 'class-validator';
import { cacheValidationMetadata } from './metadata-cache.js';

cacheValidationMetadata();

const failedFields = (object: object) => validateSync(object).map((error) => error.property).sort();

describe('class-validator metadata cache', () => {
  class Base {
    @IsString() Name: unknown;
  }
  class Child extends Base {
    @IsInt() Count: unknown;
  }

  it('answers a repeated lookup with the same rules, inherited ones included', () => {
    const storage = getMetadataStorage();
    const first = storage.getTargetValidationMetadatas(Child, '', false, false);
    assert.equal(storage.getTargetValidationMetadatas(Child, '', false, false), first);
    assert.deepEqual(first.map((rule) => rule.propertyName).sort(), ['Count', 'Name']);
    assert.deepEqual(failedFields(Object.assign(new Child(), { Name: 1, Count: 'x' })), ['Count', 'Name']);
    assert.deepEqual(failedFields(Object.assign(new Child(), { Name: 'n', Count: 2 })), []);
  });

  it('keeps lookups with other options apart', () => {
    const storage = getMetadataStorage();
    assert.notEqual(storage.getTargetValidationMetadatas(Base, '', true, false), storage.getTargetValidationMetadatas(Base, '', false, false));
    assert.deepEqual(storage.getTargetValidationMetadatas(Base, '', false, false, ['other']), []);
  });

  it('sees a rule added after a lookup (the cache is emptied)', () => {
    assert.deepEqual(failedFields(Object.assign(new Base(), { Name: 'n', Extra: 'x' })), []);
    IsInt()(Base.prototype, 'Extra');
    assert.deepEqual(failedFields(Object.assign(new Base(), { Name: 'n', Extra: 'x' })), ['Extra']);
    assert.deepEqual(failedFields(Object.assign(new Child(), { Name: 'n', Count: 1, Extra: 'x' })), ['Extra']);
  });
});
