import { randomUUID } from 'node:crypto';
import { MYSQL_LONG_TEXT_TYPE } from '../records/columns.js';
import { Table, TableForeignKey, TableIndex, type QueryRunner, type TableColumnOptions, type TableOptions } from 'typeorm';
import { SchemaRepository } from './schema.repository.js';

// Schema pieces for migrations, written with TypeORM's schema API so one migration file runs on
// SQLite and MySQL alike (house style 11). The types match the column helpers of src/records/columns.ts.

type Opt = { nullable?: boolean };

export const column = {
  text: (name: string, o: Opt & { length?: number } = {}): TableColumnOptions => ({
    name,
    type: 'varchar',
    length: String(o.length ?? 255),
    isNullable: o.nullable ?? true,
  }),
  /**
   * Long text (65,535 characters of any script): MEDIUMTEXT, as MySQL/MariaDB need; `createTable` makes it
   * TEXT on SQLite (a column added with `runner.addColumn` keeps the name there, with TEXT affinity).
   */
  longText: (name: string, o: Opt = {}): TableColumnOptions => ({ name, type: MYSQL_LONG_TEXT_TYPE, isNullable: o.nullable ?? true }),
  int: (name: string, o: Opt & { default?: number } = {}): TableColumnOptions => ({
    name,
    type: 'int',
    isNullable: o.nullable ?? true,
    default: o.default,
  }),
  money: (name: string, o: Opt & { default?: number } = {}): TableColumnOptions => ({
    name,
    type: 'decimal',
    precision: 18,
    scale: 4,
    isNullable: o.nullable ?? true,
    default: o.default,
  }),
  bool: (name: string, o: { default?: boolean } = {}): TableColumnOptions => ({
    name,
    type: 'boolean',
    isNullable: false,
    default: o.default ? 1 : 0,
  }),
  dateTime: (name: string, o: Opt = {}): TableColumnOptions => ({ name, type: 'datetime', isNullable: o.nullable ?? true }),
  idList: (name: string): TableColumnOptions => ({ name, type: 'text', isNullable: true }),
};

/** The common columns of every record (docs/api.md §1.1). */
function commonColumns(): TableColumnOptions[] {
  return [
    { name: 'Id', type: 'integer', isPrimary: true, isGenerated: true, generationStrategy: 'increment' },
    column.text('UniqueId', { length: 36, nullable: false }),
    column.dateTime('CreatedOn', { nullable: false }),
    column.dateTime('UpdatedOn', { nullable: false }),
    column.text('UpdatedBy'),
    column.bool('IsNew', { default: true }),
    column.text('SystemId'),
    // Raised by every update: the record's ETag (never sent as a field).
    column.int('Version', { nullable: false, default: 1 }),
  ];
}

/**
 * MySQL/MariaDB table options of every table the service creates: utf8mb4 (any Unicode text, 4-byte
 * emoji included) whatever the database's default character set is, so columns added later inherit it
 * too; InnoDB, which Galera clusters replicate.
 */
const MYSQL_ENGINE = 'InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci';
export const MYSQL_TABLE_OPTIONS = `ENGINE=${MYSQL_ENGINE}`;

const isMySqlRunner = (runner: QueryRunner) => ['mysql', 'mariadb'].includes(runner.connection.driver.options.type);

/**
 * Creates a table with the service's table options on MySQL. TypeORM has no option for a table's
 * character set; it writes `ENGINE=<engine>` as the last table option, so the others follow the engine.
 */
export async function createTable(runner: QueryRunner, options: TableOptions): Promise<void> {
  const mySql = isMySqlRunner(runner);
  const columns = mySql ? options.columns : options.columns?.map((c) => (c.type === MYSQL_LONG_TEXT_TYPE ? { ...c, type: 'text' } : c));
  await runner.createTable(new Table({ ...options, columns, engine: mySql ? MYSQL_ENGINE : undefined }));
}

export interface ForeignKey {
  column: string;
  references: string;
  /** What happens to this row when the referenced one is deleted (default: the delete is refused). */
  onDelete?: 'RESTRICT' | 'CASCADE' | 'SET NULL';
}

/**
 * Creates a record table: the common columns, the given ones, an index on every foreign key and
 * on each listed column (filters), and the foreign keys themselves.
 */
export async function createRecordTable(
  runner: QueryRunner,
  name: string,
  columns: TableColumnOptions[],
  options: { foreignKeys?: ForeignKey[]; indexes?: Array<string | string[]>; unique?: Array<string[]> } = {},
): Promise<void> {
  const foreignKeys = options.foreignKeys ?? [];
  await createTable(runner, {
    name,
    columns: [...commonColumns(), ...columns],
    indices: [
      new TableIndex({ name: `UQ_${name}_UniqueId`, columnNames: ['UniqueId'], isUnique: true }),
      new TableIndex({ name: `IX_${name}_CreatedOn`, columnNames: ['CreatedOn'] }),
      new TableIndex({ name: `IX_${name}_UpdatedOn`, columnNames: ['UpdatedOn'] }),
      ...foreignKeys.map((fk) => new TableIndex({ name: `IX_${name}_${fk.column}`, columnNames: [fk.column] })),
      ...(options.indexes ?? []).map((cols) => {
        const names = Array.isArray(cols) ? cols : [cols];
        return new TableIndex({ name: `IX_${name}_${names.join('_')}`, columnNames: names });
      }),
      ...(options.unique ?? []).map((cols) => new TableIndex({ name: `UQ_${name}_${cols.join('_')}`, columnNames: cols, isUnique: true })),
    ],
    foreignKeys: foreignKeys.map(
      (fk) =>
        new TableForeignKey({
          name: `FK_${name}_${fk.column}`,
          columnNames: [fk.column],
          referencedTableName: fk.references,
          referencedColumnNames: ['Id'],
          onDelete: fk.onDelete ?? 'RESTRICT',
        }),
    ),
  });
}

/**
 * Creates a join table holding an id list (`product_tariff`): one row per pair, the pair as the
 * primary key, and foreign keys that remove the rows with either side.
 */
export async function createJoinTable(runner: QueryRunner, name: string, sides: [ForeignKey, ForeignKey]): Promise<void> {
  await createTable(runner, {
    name,
    columns: sides.map((side) => ({ name: side.column, type: 'int', isPrimary: true, isNullable: false })),
    indices: [new TableIndex({ name: `IX_${name}_${sides[1].column}`, columnNames: [sides[1].column] })],
    foreignKeys: sides.map(
      (side) =>
        new TableForeignKey({
          name: `FK_${name}_${side.column}`,
          columnNames: [side.column],
          referencedTableName: side.references,
          referencedColumnNames: ['Id'],
          onDelete: side.onDelete ?? 'CASCADE',
        }),
    ),
  });
}

const utcText = (date: Date) => date.toISOString().replace('T', ' ').replace('Z', '');

/** Inserts reference rows with their common fields, in batches, as bound parameters. */
export async function seedRecords(
  runner: QueryRunner,
  table: string,
  columns: string[],
  rows: ReadonlyArray<ReadonlyArray<unknown>>,
): Promise<void> {
  const now = utcText(new Date());
  const all = ['UniqueId', 'CreatedOn', 'UpdatedOn', 'IsNew', ...columns];
  for (let start = 0; start < rows.length; start += 100) {
    const batch = rows.slice(start, start + 100).map((row) => [randomUUID(), now, now, 1, ...row]);
    await SchemaRepository.insertRows(runner, table, all, batch);
  }
}
