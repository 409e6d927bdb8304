import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Bool, DateTime, IdList, Integer, Money, Text } from '../records/validation/fields.js';
import { formToRecordBody } from './form-body.js';

class Sample {
  @Text() Name?: string;
  @Integer() Count?: number;
  @Money() Price?: number;
  @Bool() Active?: boolean;
  @DateTime() StartDate?: Date;
  @IdList() Ids?: number[];
}

describe('form-encoded body to the JSON body', () => {
  it('converts each declared field by its rules and drops the rest', () => {
    const form = {
      Name: ' Locker ',
      Count: '3',
      Price: '-1.25e1',
      Active: 'TRUE',
      StartDate: '2025-01-15T10:30',
      Ids: ['1', '2,3'],
      Unknown: 'x',
      Id: '7',
    };
    assert.deepEqual(formToRecordBody(form, Sample), {
      Id: 7,
      Name: ' Locker ',
      Count: 3,
      Price: -12.5,
      Active: true,
      StartDate: '2025-01-15T10:30',
      Ids: [1, 2, 3],
    });
  });

  it('empty values: null for numbers, flags, dates and lists; text stays text', () => {
    assert.deepEqual(formToRecordBody({ Name: '', Count: '', Price: ' ', Active: '', StartDate: '', Ids: '' }, Sample), {
      Name: '',
      Count: null,
      Price: null,
      Active: null,
      StartDate: null,
      Ids: null,
    });
  });

  it('what is not a number or a flag stays text, for validation to refuse; a repeated key counts as its first', () => {
    assert.deepEqual(formToRecordBody({ Count: '12abc', Price: '0x10', Active: 'yes', Ids: '1,x', Name: ['a', 'b'] }, Sample), {
      Count: '12abc',
      Price: '0x10',
      Active: 'yes',
      Ids: [1, 'x'],
      Name: 'a',
    });
  });
});
