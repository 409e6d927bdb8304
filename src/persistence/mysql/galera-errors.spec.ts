import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { QueryFailedError } from 'typeorm';
import { isDatabaseUnavailable, isDeadlock, isTransientConflict, isUniqueViolation } from '../database-errors.js';

// The errors a MariaDB Galera node gives, as mysql2 reports them and TypeORM wraps them.
const driverError = (errno: number, code: string, message: string) => Object.assign(new Error(message), { errno, code, sqlState: '08S01' });
const wrapped = (error: Error) => new QueryFailedError('SELECT 1', [], error);

describe('Galera errors', () => {
  it('a node that is not ready (joining, or cut off from the majority) is the database being unavailable', () => {
    const notReady = driverError(1047, 'ER_UNKNOWN_COM_ERROR', 'WSREP has not yet prepared node for application use');
    assert.equal(isDatabaseUnavailable(notReady), true);
    assert.equal(isDatabaseUnavailable(wrapped(notReady)), true);
    assert.equal(isDeadlock(notReady), false);
  });

  it("a transaction that lost certification to another node's is a deadlock, to run again", () => {
    const conflict = driverError(1213, 'ER_LOCK_DEADLOCK', 'Deadlock found when trying to get lock; try restarting transaction');
    assert.equal(isDeadlock(wrapped(conflict)), true);
    assert.equal(isDatabaseUnavailable(conflict), false);
  });

  it("a duplicate invoice number (a counter read before another node's commit was applied) is a conflict to run again; other duplicates are not", () => {
    const number = driverError(1062, 'ER_DUP_ENTRY', "Duplicate entry '6-6' for key 'UQ_coworkerinvoice_BusinessId_InvoiceNumber'");
    assert.equal(isTransientConflict(wrapped(number)), true);
    assert.equal(
      isTransientConflict(driverError(1062, 'ER_DUP_ENTRY', "Duplicate entry '2-7' for key 'UQ_invoice_BusinessId_InvoiceNumber'")),
      true,
    );
    assert.equal(isUniqueViolation(wrapped(number)), true);
    const email = driverError(1062, 'ER_DUP_ENTRY', "Duplicate entry 'a@b.example' for key 'UQ_user_Email'");
    assert.equal(isTransientConflict(wrapped(email)), false);
    const line = driverError(1062, 'ER_DUP_ENTRY', "Duplicate entry 'x/2025-01-01' for key 'UQ_coworkerinvoiceline_BilledItemKey'");
    assert.equal(isTransientConflict(wrapped(line)), false);
    // A guarded write's turn another node's write took (Database.takeTurn).
    assert.equal(
      isTransientConflict(
        wrapped(driverError(1062, 'ER_DUP_ENTRY', "Duplicate entry 'product-12-7' for key 'UQ_row_turn_TableName_RowId_Turn'")),
      ),
      true,
    );
    assert.equal(isTransientConflict(wrapped(driverError(1205, 'ER_LOCK_WAIT_TIMEOUT', 'Lock wait timeout exceeded'))), true);
  });
});
