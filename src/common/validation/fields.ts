import { applyDecorators } from '@nestjs/common';
import { ApiProperty } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import {
  ArrayMaxSize, IsArray, IsBoolean, IsDate, IsDefined, IsIn, IsInt, IsNotEmpty, IsNumber, IsOptional, IsString, Max, MaxLength, Min,
} from 'class-validator';
import { LONG_TEXT_MAX, SHORT_TEXT_MAX, type AnyClass } from '../columns.js';
import { parseDateTime } from '../wire-values.js';

// Reusable field rules: each validates a field and documents it in OpenAPI at once (house style 8).

export const MAX_ID = 2_147_483_647;

interface FieldOptions {
  /** Required on create and on update (contract §3). */
  required?: boolean;
  description?: string;
}

/** A reference from a DTO field to a record type whose ids are checked to exist. */
export interface Reference {
  property: string;
  target: () => AnyClass;
  list: boolean;
}
const REFERENCES = Symbol('references');

export function referencesOf(dto: AnyClass): Reference[] {
  return Reflect.getMetadata(REFERENCES, dto) ?? [];
}

function recordReference(list: boolean, target: () => AnyClass): PropertyDecorator {
  return (prototype, property) => {
    const inherited: Reference[] = Reflect.getMetadata(REFERENCES, prototype.constructor) ?? [];
    Reflect.defineMetadata(REFERENCES, [...inherited, { property: String(property), target, list }], prototype.constructor);
  };
}

function presence(options: FieldOptions) {
  return options.required
    ? IsDefined({ message: '$property is required.' })
    : IsOptional();
}

function api(options: FieldOptions, schema: Record<string, unknown>) {
  return ApiProperty({ required: Boolean(options.required), nullable: !options.required, description: options.description, ...schema });
}

/** A string of at most 255 characters, or 65,535 for long text (contract §1). */
export function Text(options: FieldOptions & { long?: boolean; max?: number } = {}) {
  const max = options.max ?? (options.long ? LONG_TEXT_MAX : SHORT_TEXT_MAX);
  return applyDecorators(
    api(options, { type: String, maxLength: max }),
    presence(options),
    IsString({ message: '$property must be a string.' }),
    ...(options.required ? [IsNotEmpty({ message: '$property must not be empty.' })] : []),
    MaxLength(max, { message: `$property must be at most ${max} characters long.` }),
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
export function Money(options: FieldOptions & { min?: number } = {}) {
  return applyDecorators(
    api(options, { type: 'number', minimum: options.min }),
    presence(options),
    IsNumber({ allowNaN: false, allowInfinity: false, maxDecimalPlaces: 4 }, { message: '$property must be a number with at most 4 decimal places.' }),
    ...(options.min !== undefined ? [Min(options.min, { message: `$property must be at least ${options.min}.` })] : []),
    Max(99_999_999_999_999, { message: '$property is too large.' }),
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

/** A date-time in any input form of contract §1; it reaches the service as a Date. */
export function DateTime(options: FieldOptions = {}) {
  return applyDecorators(
    api(options, { type: String, format: 'date-time', example: '2025-01-15T10:30:00Z' }),
    Transform(({ value }) => (typeof value === 'string' ? (parseDateTime(value) ?? value) : value)),
    presence(options),
    IsDate({ message: '$property must be a date-time such as 2025-01-15T10:30:00Z.' }),
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
export function Reference(target: () => AnyClass, options: FieldOptions = {}) {
  return applyDecorators(api(options, { type: 'integer', minimum: 1 }), presence(options), ...idRules(), recordReference(false, target));
}

/** An id of a record type this service does not hold: a positive integer, not checked. */
export function ExternalId(options: FieldOptions = {}) {
  return applyDecorators(api(options, { type: 'integer', minimum: 1 }), presence(options), ...idRules());
}

/** A list of ids; checked to exist when it names a record type this service holds. */
export function IdList(options: FieldOptions & { references?: () => AnyClass } = {}) {
  const eachId = { each: true, message: '$property must hold positive integer ids.' };
  return applyDecorators(
    api(options, { type: 'integer', isArray: true }),
    presence(options),
    IsArray({ message: '$property must be a list of ids.' }),
    ArrayMaxSize(1000, { message: '$property may hold at most 1000 ids.' }),
    IsInt(eachId),
    Min(1, eachId),
    Max(MAX_ID, eachId),
    ...(options.references ? [recordReference(true, options.references)] : []),
  );
}
