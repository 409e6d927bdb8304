// The database's error classification lives with the database (src/persistence/database-errors.ts);
// this path stays for its callers.
export * from '../persistence/database-errors.js';
