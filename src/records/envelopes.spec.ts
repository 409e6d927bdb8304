import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { failureConfirmation, listEnvelope, successConfirmation, validationFailure } from './envelopes.js';
import { parseDateTime, toWire } from './wire-values.js';

describe('ActionConfirmation builders', () => {
  it('success carries the eleven keys, Value and the acting user', () => {
    const c = successConfirmation(
      'Product was successfully created.',
      { Id: 7 },
      'admin@example.com',
      new Date('2025-01-15T10:30:00.123Z'),
    );
    assert.deepEqual(c, {
      Status: 200,
      Message: 'Product was successfully created.',
      Value: { Id: 7 },
      WasSuccessful: true,
      Errors: null,
      OpenInDialog: false,
      OpenInWindow: false,
      RedirectURL: null,
      JavaScript: null,
      UpdatedOn: '2025-01-15T10:30:00Z',
      UpdatedBy: 'admin@example.com',
    });
  });

  it('validation failure: Message is "<PropertyName>: <message>" of the first error, Value null', () => {
    const c = validationFailure([
      { PropertyName: 'Name', Message: 'Name is required.', AttemptedValue: null },
      { PropertyName: 'Price', Message: 'Price must be a number.', AttemptedValue: 'x' },
    ]);
    assert.equal(c.Status, 400);
    assert.equal(c.Message, 'Name: Name is required.');
    assert.equal(c.Value, null);
    assert.equal(c.WasSuccessful, false);
    assert.equal(c.Errors?.length, 2);
  });

  it('a refusal has a Message and no errors', () => {
    const c = failureConfirmation(400, 'Product 3 is archived and cannot be sold.');
    assert.equal(c.Errors, null);
    assert.equal(Object.keys(c).length, 11);
  });
});

describe('listEnvelope', () => {
  const page = (p: number, size: number) => ({ page: p, size, orderBy: 'Id', direction: 1 as const });

  it('describes a middle page', () => {
    const e = listEnvelope([1, 2, 3], page(2, 3), 8);
    assert.deepEqual(
      { ...e, Records: undefined },
      {
        Records: undefined,
        CurrentPageSize: 3,
        CurrentPage: 2,
        CurrentOrderField: 'Id',
        CurrentSortDirection: 1,
        FirstItem: 4,
        HasNextPage: true,
        HasPreviousPage: true,
        LastItem: 6,
        PageNumber: 2,
        PageSize: 3,
        TotalItems: 8,
        TotalPages: 3,
      },
    );
  });

  it('describes the last, partial page', () => {
    const e = listEnvelope([1, 2], page(3, 3), 8);
    assert.deepEqual([e.FirstItem, e.LastItem, e.HasNextPage, e.TotalPages], [7, 8, false, 3]);
  });

  it('describes an empty list', () => {
    const e = listEnvelope([], page(1, 25), 0);
    assert.deepEqual([e.FirstItem, e.LastItem, e.HasNextPage, e.HasPreviousPage, e.TotalPages], [0, 0, false, false, 0]);
  });
});

describe('wire values', () => {
  it('reads every accepted input form of a date-time as UTC unless a zone is given', () => {
    const iso = (s: string) => parseDateTime(s)?.toISOString();
    assert.equal(iso('2025-01-15'), '2025-01-15T00:00:00.000Z');
    assert.equal(iso('2025-01-15T10:30'), '2025-01-15T10:30:00.000Z');
    assert.equal(iso('2025-01-15T10:30:45'), '2025-01-15T10:30:45.000Z');
    assert.equal(iso('2025-01-15T10:30:45Z'), '2025-01-15T10:30:45.000Z');
    assert.equal(iso('2025-01-15T10:30:45+02:00'), '2025-01-15T08:30:45.000Z');
    assert.equal(iso('2025-01-15T10:30:45.5-0100'), '2025-01-15T11:30:45.500Z');
    for (const bad of ['2025-02-30', '15/01/2025', 'tomorrow', '2025-13-01T00:00', '']) assert.equal(parseDateTime(bad), null, bad);
  });

  it('writes database values in their wire form', () => {
    assert.equal(toWire('datetime', '2025-01-15 10:30:00.000'), '2025-01-15T10:30:00Z');
    assert.equal(toWire('datetime', '2025-01-15 10:30:00'), '2025-01-15T10:30:00Z');
    assert.equal(toWire('bool', 1), true);
    assert.equal(toWire('bool', 0), false);
    assert.equal(toWire('money', '12.5000'), 12.5);
    assert.deepEqual(toWire('idList', '[1,2]'), [1, 2]);
    assert.deepEqual(toWire('idList', null), []);
    assert.equal(toWire('text', null), null);
  });
});
