import { getMetadataArgsStorage } from 'typeorm';
import { applyDecorators } from '@nestjs/common';
import { ApiProperty } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsDate,
  IsDefined,
  IsEmail,
  IsIn,
  IsInt,
  IsNotEmpty,
  IsNumber,
  IsOptional,
  IsString,
  Max,
  Min,
  ValidateBy,
} from 'class-validator';
import { LONG_TEXT_MAX, SHORT_TEXT_MAX, type AnyClass } from '../columns.js';
import { parseDateTime } from '../wire-values.js';

// Reusable field rules: each validates a field and documents it in OpenAPI at once (house style 8).

export const MAX_ID = 2_147_483_647;
/** Money and amounts: below 10^13 in absolute value, four decimal places (decimal(18,4) on both databases). */
export const MONEY_LIMIT = 10_000_000_000_000;
/** The years a date-time may fall in, in UTC: what both databases' datetime columns hold and give back. */
export const FIRST_YEAR = 1000;
export const LAST_YEAR = 9999;
/** The years billing dates and booking times fall in (docs/api.md §9.1 "Bounds"): what a run walks is bounded. */
export const BOUNDED_FIRST_YEAR = 2000;
export const BOUNDED_LAST_YEAR = 2099;

/** An email as it is compared and kept unique: trimmed and lower-cased (İ grows when lower-cased). */
export const emailKey = (email: string): string => email.trim().toLowerCase();

/** Whether a number has at most four decimal places as written, exponent notation included. */
export function fitsMoney(value: unknown): boolean {
  if (typeof value !== 'number' || !Number.isFinite(value) || Math.abs(value) >= MONEY_LIMIT) return false;
  // Below 10^13 a number's shortest text uses an exponent only under 10^-6, which has more than four decimals.
  const text = String(value);
  if (text.includes('e')) return value === 0;
  const point = text.indexOf('.');
  return point < 0 || text.length - point - 1 <= 4;
}

interface FieldOptions {
  /** Required on create and on update (docs/api.md §3). */
  required?: boolean;
  description?: string;
}

/** A reference from a DTO field to a record type whose ids are checked to exist. */
export interface Reference {
  property: string;
  target: () => AnyClass;
  list: boolean;
  /** The referenced records must belong to the same business as the referring one. */
  sameBusiness: boolean;
  /**
   * A value equal to the stored one is not checked: the field named nothing before its record type
   * existed, and what was stored then is kept and may be sent back as read (docs/api.md §1).
   */
  keepsStored?: boolean;
  /**
   * Ids that name no record are accepted (they match none): only ids of another business are refused
   * (docs/api.md §1). A record an id names is still kept from deletion like any other (listed-references.ts).
   */
  mayNameNothing?: boolean;
}

/** For references to records of a business: they must be of the referring record's business. */
interface LinkOptions {
  sameBusiness?: boolean;
  keepsStored?: boolean;
  mayNameNothing?: boolean;
}
const REFERENCES = Symbol('references');

export function referencesOf(dto: AnyClass): Reference[] {
  return Reflect.getMetadata(REFERENCES, dto) ?? [];
}

function recordReference(
  list: boolean,
  target: () => AnyClass,
  sameBusiness = false,
  keepsStored = false,
  mayNameNothing = false,
): PropertyDecorator {
  return (prototype, property) => {
    const inherited: Reference[] = Reflect.getMetadata(REFERENCES, prototype.constructor) ?? [];
    Reflect.defineMetadata(
      REFERENCES,
      [...inherited, { property: String(property), target, list, sameBusiness, keepsStored, mayNameNothing }],
      prototype.constructor,
    );
  };
}

function presence(options: FieldOptions) {
  return options.required ? IsDefined({ message: '$property is required.' }) : IsOptional();
}

function api(options: FieldOptions, schema: Record<string, unknown>) {
  return ApiProperty({ required: Boolean(options.required), nullable: !options.required, description: options.description, ...schema });
}

/**
 * The number of Unicode characters (code points) in a string: a character outside the Basic
 * Multilingual Plane (an emoji), two UTF-16 units, counts as one, as SQLite's length() and MySQL's
 * CHAR_LENGTH() on utf8mb4 count it. Lengths are in characters, never in UTF-8 bytes (docs/api.md §1).
 */
export function characterCount(text: string): number {
  let count = text.length;
  for (let i = 0; i < text.length - 1; i++) {
    const unit = text.charCodeAt(i);
    if (unit >= 0xd800 && unit <= 0xdbff) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        count--;
        i++;
      }
    }
  }
  return count;
}

/** At most `max` characters (class-validator's MaxLength skips U+FE0E/U+FE0F, so it is not used). */
function MaxCharacters(max: number) {
  return ValidateBy({
    name: 'maxLength',
    constraints: [max],
    validator: {
      validate: (value: unknown) => typeof value !== 'string' || characterCount(value) <= max,
      defaultMessage: () => `$property must be at most ${max} characters long.`,
    },
  });
}

/**
 * A string of at most 255 characters, or long text of at most 65,535 characters, whatever their size
 * in UTF-8: long text is MEDIUMTEXT on MySQL/MariaDB (`LongTextColumn`), which holds 65,535 characters
 * of four bytes each.
 */
export function Text(options: FieldOptions & { long?: boolean; max?: number } = {}) {
  const max = options.max ?? (options.long ? LONG_TEXT_MAX : SHORT_TEXT_MAX);
  return applyDecorators(
    api(options, { type: String, maxLength: max }),
    presence(options),
    IsString({ message: '$property must be a string.' }),
    ...(options.required ? [IsNotEmpty({ message: '$property must not be empty.' })] : []),
    MaxCharacters(max),
  );
}

/**
 * A string of at most 255 characters that matches `pattern` whole (an identifier of a standard: a VAT
 * number, an IBAN); `rule` says what it must be, in the 400's message.
 */
export function PatternText(pattern: RegExp, rule: string, options: FieldOptions = {}) {
  return applyDecorators(
    api(options, { type: String, maxLength: SHORT_TEXT_MAX, pattern: pattern.source }),
    presence(options),
    IsString({ message: '$property must be a string.' }),
    ValidateBy({
      name: 'pattern',
      constraints: [pattern.source],
      validator: {
        validate: (value: unknown) => typeof value !== 'string' || pattern.test(value),
        defaultMessage: () => `$property must be ${rule}.`,
      },
    }),
  );
}

/** A code of a list of strings (a code list of a standard), matched exactly. */
export function TextCode(values: readonly string[], options: FieldOptions = {}) {
  return applyDecorators(
    api(options, { type: String, enum: [...values] }),
    presence(options),
    IsString({ message: '$property must be a string.' }),
    IsIn([...values], { message: `$property must be one of ${values.join(', ')}.` }),
  );
}

/** An email address, trimmed; at most 255 characters also once lower-cased, as it is compared. */
export function EmailAddress(options: FieldOptions = {}) {
  return applyDecorators(
    Transform(({ value }) => (typeof value === 'string' ? value.trim() : value)),
    Text(options),
    IsEmail({}, { message: '$property must be an email address.' }),
    ValidateBy({
      name: 'emailKeyLength',
      validator: {
        validate: (value: unknown) => typeof value !== 'string' || [...emailKey(value)].length <= SHORT_TEXT_MAX,
        defaultMessage: () => `$property must be at most ${SHORT_TEXT_MAX} characters long in lower case.`,
      },
    }),
  );
}

export function Integer(options: FieldOptions & { min?: number; max?: number } = {}) {
  const min = options.min ?? -MAX_ID;
  const max = options.max ?? MAX_ID;
  return applyDecorators(
    api(options, { type: 'integer', minimum: min, maximum: max }),
    presence(options),
    IsInt({ message: '$property must be an integer.' }),
    Min(min, { message: `$property must be at least ${min}.` }),
    Max(max, { message: `$property must be at most ${max}.` }),
  );
}

/** A monetary amount or quantity with up to four decimal places. */
/** Whether a number has at most two decimal places as written: an amount that moves money (docs/api.md §9.1). */
export function fitsCents(value: unknown): boolean {
  if (!fitsMoney(value)) return true; // the money rule explains that one
  const text = String(value);
  const point = text.indexOf('.');
  return point < 0 || text.length - point - 1 <= 2;
}

/**
 * Money: at most 4 decimals (a unit price), or `cents` for an amount that moves money (ledger Debit and
 * Credit: at most 2 decimals, docs/api.md §9.1).
 */
export function Money(options: FieldOptions & { min?: number; max?: number; cents?: boolean } = {}) {
  return applyDecorators(
    api(options, { type: 'number', minimum: options.min, maximum: options.max }),
    presence(options),
    IsNumber({ allowNaN: false, allowInfinity: false }, { message: '$property must be a number with at most 4 decimal places.' }),
    ValidateBy({
      name: 'money',
      validator: {
        validate: fitsMoney,
        defaultMessage: () => '$property must be a number below 10000000000000 in absolute value, with at most 4 decimal places.',
      },
    }),
    ...(options.cents
      ? [
          ValidateBy({
            name: 'cents',
            validator: {
              validate: fitsCents,
              defaultMessage: () => '$property must have at most 2 decimal places (an amount of money moved).',
            },
          }),
        ]
      : []),
    ...(options.min !== undefined ? [Min(options.min, { message: `$property must be at least ${options.min}.` })] : []),
    ...(options.max !== undefined ? [Max(options.max, { message: `$property must be at most ${options.max}.` })] : []),
  );
}

/** A boolean: JSON true/false, or the strings "true" and "false" in any case (some clients send those). */
export function Bool(options: FieldOptions = {}) {
  return applyDecorators(
    api(options, { type: Boolean }),
    Transform(({ value }) => (typeof value === 'string' && /^(true|false)$/i.test(value) ? value.toLowerCase() === 'true' : value)),
    presence(options),
    IsBoolean({ message: '$property must be true or false.' }),
  );
}

/**
 * A date-time in any input form of docs/api.md §1; it reaches the service as a Date. `bounded`: a billing
 * date or booking time, which must fall in the years 2000 to 2099 (docs/api.md §9.1 "Bounds").
 */
export function DateTime(options: FieldOptions & { bounded?: boolean } = {}) {
  const [first, last] = options.bounded ? [BOUNDED_FIRST_YEAR, BOUNDED_LAST_YEAR] : [FIRST_YEAR, LAST_YEAR];
  return applyDecorators(
    api(options, { type: String, format: 'date-time', example: '2025-01-15T10:30:00Z' }),
    Transform(({ value }) => (typeof value === 'string' ? (parseDateTime(value) ?? value) : value)),
    presence(options),
    IsDate({ message: '$property must be a date-time such as 2025-01-15T10:30:00Z.' }),
    ValidateBy({
      name: 'yearRange',
      validator: {
        validate: (value: unknown) => !(value instanceof Date) || (value.getUTCFullYear() >= first && value.getUTCFullYear() <= last),
        defaultMessage: () =>
          options.bounded
            ? `$property must lie between ${first}-01-01 and ${last}-12-31.`
            : `$property must fall in the years ${first} to ${last} (UTC).`,
      },
    }),
  );
}

/** An integer enumeration checked against its list of values. */
export function Enum(values: Record<string, number> | readonly number[], options: FieldOptions = {}) {
  const allowed = Array.isArray(values) ? [...values] : Object.values(values).filter((v): v is number => typeof v === 'number');
  return applyDecorators(
    api(options, { type: 'integer', enum: allowed }),
    presence(options),
    IsInt({ message: '$property must be an integer.' }),
    IsIn(allowed, { message: `$property must be one of ${allowed.join(', ')}.` }),
  );
}

function idRules() {
  return [
    IsInt({ message: '$property must be a positive integer id.' }),
    Min(1, { message: '$property must be a positive integer id.' }),
    Max(MAX_ID, { message: '$property must be a positive integer id.' }),
  ];
}

/** An id of a record this service holds: checked to exist (400 naming the field otherwise). */
export function Reference(target: () => AnyClass, options: FieldOptions & LinkOptions = {}) {
  return applyDecorators(
    api(options, { type: 'integer', minimum: 1 }),
    presence(options),
    ...idRules(),
    recordReference(false, target, options.sameBusiness, options.keepsStored),
  );
}

/** An id of a record type this service does not hold: a positive integer, not checked. */
export function ExternalId(options: FieldOptions = {}) {
  return applyDecorators(api(options, { type: 'integer', minimum: 1 }), presence(options), ...idRules());
}

/** A list of ids; checked to exist when it names a record type this service holds. */
/**
 * The entity class TypeORM knows by `name`, for a reference to a record type of a higher layer (a
 * billing credit's `ElegibleResourceTypes` naming the spaces' resource types, docs/architecture.md §6):
 * resolved when first checked, once every module is loaded, so the lower layer imports nothing upward.
 */
export function entityNamed(name: string): () => AnyClass {
  let found: AnyClass | undefined;
  return () => {
    found ??= getMetadataArgsStorage()
      .tables.map((table) => table.target)
      .find((target): target is AnyClass => typeof target === 'function' && target.name === name);
    if (!found) throw new Error(`No entity named ${name} is loaded`);
    return found;
  };
}

export function IdList(options: FieldOptions & LinkOptions & { references?: () => AnyClass } = {}) {
  const eachId = { each: true, message: '$property must hold positive integer ids.' };
  return applyDecorators(
    api(options, { type: 'integer', isArray: true }),
    presence(options),
    IsArray({ message: '$property must be a list of ids.' }),
    ArrayMaxSize(1000, { message: '$property may hold at most 1000 ids.' }),
    IsInt(eachId),
    Min(1, eachId),
    Max(MAX_ID, eachId),
    ...(options.references ? [recordReference(true, options.references, options.sameBusiness, false, options.mayNameNothing)] : []),
  );
}
