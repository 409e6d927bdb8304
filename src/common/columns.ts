import { Column, type ColumnOptions } from 'typeorm';

// Portable column declarations: each means the same on SQLite and MySQL (house style 12).

export const LONG_TEXT_MAX = 65_535;
export const SHORT_TEXT_MAX = 255;

/** The value kinds the wire knows; every column maps to one, and reads convert by it. */
export type WireKind = 'int' | 'money' | 'bool' | 'datetime' | 'text' | 'idList';

const WIRE_KIND = Symbol('wireKind');

function tagged(kind: WireKind, options: ColumnOptions): PropertyDecorator {
  return (target, property) => {
    Reflect.defineMetadata(WIRE_KIND, kind, target, property);
    Column(options)(target, property);
  };
}

/** The wire kind of an entity column, from the helper that declared it. */
export function wireKindOf(entity: AnyClass, property: string): WireKind | undefined {
  return Reflect.getMetadata(WIRE_KIND, entity.prototype, property);
}

type Nullable = { nullable?: boolean };

export const TextColumn = (o: Nullable & { length?: number } = {}) =>
  tagged('text', { type: 'varchar', length: o.length ?? SHORT_TEXT_MAX, nullable: o.nullable ?? true });
export const LongTextColumn = (o: Nullable = {}) => tagged('text', { type: 'text', nullable: o.nullable ?? true });
export const IntColumn = (o: Nullable & { default?: number } = {}) =>
  tagged('int', { type: 'int', nullable: o.nullable ?? true, default: o.default });
/** Money and amounts: exact decimals in the database, JSON numbers on the wire. */
export const MoneyColumn = (o: Nullable & { default?: number } = {}) =>
  tagged('money', {
    type: 'decimal',
    precision: 18,
    scale: 4,
    nullable: o.nullable ?? true,
    default: o.default,
    transformer: { to: (v: unknown) => v, from: (v: unknown) => (v === null || v === undefined ? v : Number(v)) },
  });
export const BoolColumn = (o: { default?: boolean } = {}) => tagged('bool', { type: 'boolean', default: o.default ?? false });
/** Date-times are stored in UTC ('datetime' on both databases; the MySQL connection runs in UTC). */
export const DateTimeColumn = (o: Nullable = {}) => tagged('datetime', { type: 'datetime', nullable: o.nullable ?? true });
/** Id lists of record types this service does not hold, kept as JSON text. */
export const IdListColumn = () => tagged('idList', { type: 'simple-json', nullable: true });

/** Any class: entities and DTOs, as decorators and metadata lookups receive them. */
export type AnyClass = abstract new (...args: any[]) => any;
