import { Column, ForeignKey, Index, type ColumnOptions } from 'typeorm';
import type { AnyClass } from '../persistence/database.js';

// Portable column declarations: each means the same on SQLite and MySQL (house style 12).

export const LONG_TEXT_MAX = 65_535;
export const SHORT_TEXT_MAX = 255;

/** The value kinds the wire knows; every column maps to one, and reads convert by it. */
export type WireKind = 'int' | 'money' | 'bool' | 'datetime' | 'text' | 'idList';

const WIRE_KIND = Symbol('wireKind');

/**
 * What a column's migration also created, declared here so the entities describe the same schema
 * (TypeORM's schema diff, `migration:generate`, then finds nothing to change):
 * `index` for a filter index, `references` for a foreign key (which the migrations also index).
 */
export interface SchemaOptions {
  index?: boolean;
  references?: () => AnyClass;
  /** What deleting the referenced row does to this one (default: the delete is refused). */
  onDelete?: 'RESTRICT' | 'CASCADE' | 'SET NULL';
}

function tagged(kind: WireKind, options: ColumnOptions, schema: SchemaOptions = {}): PropertyDecorator {
  return (target, property) => {
    Reflect.defineMetadata(WIRE_KIND, kind, target, property);
    Column(options)(target, property);
    if (schema.index || schema.references) Index()(target, property);
    if (schema.references) {
      // ON UPDATE is left to the database in the migrations; MySQL and MariaDB report that as RESTRICT.
      ForeignKey(schema.references as () => new () => unknown, { onDelete: schema.onDelete ?? 'RESTRICT', onUpdate: 'RESTRICT' })(
        target,
        property,
      );
    }
  };
}

/** The wire kind of an entity column, from the helper that declared it. */
export function wireKindOf(entity: AnyClass, property: string): WireKind | undefined {
  return Reflect.getMetadata(WIRE_KIND, entity.prototype, property);
}

type Nullable = { nullable?: boolean };

export const TextColumn = (o: Nullable & { length?: number; index?: boolean } = {}) =>
  tagged('text', { type: 'varchar', length: o.length ?? SHORT_TEXT_MAX, nullable: o.nullable ?? true }, o);
const LONG_TEXT = Symbol('longText');

/**
 * Long text: up to 65,535 characters of any script (docs/api.md §1). TEXT on SQLite; on MySQL/MariaDB,
 * whose TEXT holds 65,535 bytes, MEDIUMTEXT: declared 'text' here, as SQLite knows no other type, and
 * made MEDIUMTEXT in the metadata of a MySQL data source (`ServiceDataSource`) and by the migrations'
 * `column.longText`, so every table made later gets the right type by using these two helpers.
 */
export const LongTextColumn =
  (o: Nullable = {}): PropertyDecorator =>
  (target, property) => {
    Reflect.defineMetadata(LONG_TEXT, true, target, property);
    tagged('text', { type: 'text', nullable: o.nullable ?? true })(target, property);
  };

/** Whether an entity's column was declared with `LongTextColumn` (`prototype` of the declaring class). */
export function isLongTextColumn(prototype: object, property: string): boolean {
  return Reflect.getMetadata(LONG_TEXT, prototype, property) === true;
}

/** The type of a long-text column on MySQL/MariaDB: 65,535 characters of up to 4 bytes fit. */
export const MYSQL_LONG_TEXT_TYPE = 'mediumtext';
/** An integer; with `references` it is a foreign key to that entity's Id. */
export const IntColumn = (o: Nullable & SchemaOptions & { default?: number } = {}) =>
  tagged('int', { type: 'int', nullable: o.nullable ?? true, default: o.default }, o);
/** Money and amounts: exact decimals in the database, JSON numbers on the wire. */
export const MoneyColumn = (o: Nullable & { default?: number; index?: boolean } = {}) =>
  tagged(
    'money',
    {
      type: 'decimal',
      precision: 18,
      scale: 4,
      nullable: o.nullable ?? true,
      default: o.default,
      transformer: { to: (v: unknown) => v, from: (v: unknown) => (v === null || v === undefined ? v : Number(v)) },
    },
    o,
  );
export const BoolColumn = (o: { default?: boolean } = {}) => tagged('bool', { type: 'boolean', default: o.default ?? false });
/** Date-times are stored in UTC ('datetime' on both databases; the MySQL connection runs in UTC). */
export const DateTimeColumn = (o: Nullable & { index?: boolean } = {}) =>
  tagged('datetime', { type: 'datetime', nullable: o.nullable ?? true }, o);
/** Id lists of record types this service does not hold, kept as JSON text. */
export const IdListColumn = () => tagged('idList', { type: 'simple-json', nullable: true });

// Any class (entities and DTOs, as decorators and metadata lookups receive them) is the database
// façade's type, which names tables by entity.
export type { AnyClass };
