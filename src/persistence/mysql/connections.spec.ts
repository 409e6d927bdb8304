import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { executeOn, executeStatement, type MySqlCallback, type MySqlConnection } from './connections.js';

/** A mysql2 connection that answers every statement with `rows` and `fields`, recording what it was given. */
function answering(rows: unknown[], fields: unknown[]) {
  const calls: unknown[][] = [];
  const connection = {
    threadId: 1,
    execute: (...args: unknown[]) => {
      calls.push(args);
      const callback = args[args.length - 1] as MySqlCallback;
      setImmediate(() => callback(null, rows, fields));
    },
  } as unknown as MySqlConnection;
  return { connection, calls };
}

const run = (connection: MySqlConnection, rowsAsArray: boolean) =>
  new Promise<unknown>((resolve, reject) =>
    executeStatement(connection, 'SELECT a, b', [1], rowsAsArray, (error, rows) => (error ? reject(error) : resolve(rows))),
  );

describe('executeStatement (persistence/mysql/connections.ts)', () => {
  it('gives mysql2 the statement as text, never as an options object (whose copy is spread: docs/performance.md)', async () => {
    const { connection, calls } = answering([{ a: 1, b: 'x' }], [{}, {}]);
    await run(connection, true);
    await run(connection, false);
    await executeOn(connection, 'SELECT a, b', [undefined], true);
    for (const args of calls) {
      assert.equal(typeof args[0], 'string');
      assert.ok(Array.isArray(args[1]));
      assert.equal(typeof args[2], 'function');
    }
    // undefined parameters go as NULL
    assert.deepEqual(calls[2][1], [null]);
  });

  it('answers an array read with each row as its values in select-list order, and an object read as it came', async () => {
    const rows = [
      { Name: 'Desk', Price: '12.50', Id: 3 },
      { Name: 'Room', Price: null, Id: 4 },
    ];
    assert.deepEqual(await run(answering(rows, [{}, {}, {}]).connection, true), [
      ['Desk', '12.50', 3],
      ['Room', null, 4],
    ]);
    assert.equal(await run(answering(rows, [{}, {}, {}]).connection, false), rows);
    assert.deepEqual(await run(answering([], []).connection, true), []);
  });

  it('refuses an array read whose columns share a name (an object row would have lost one)', async () => {
    // Two columns named Name: the row object keeps one, so positions would shift.
    await assert.rejects(run(answering([{ Name: 'b', Id: 3 }], [{}, {}, {}]).connection, true), /named two of its columns alike/);
  });
});
