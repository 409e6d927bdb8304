import { getMetadataStorage, ValidationTypes } from 'class-validator';
import type { ValidationMetadata } from 'class-validator/types/metadata/ValidationMetadata.js';
import { createRequire } from 'node:module';
import { TransformationType, type ClassTransformOptions } from 'class-transformer';
import type { MetadataStorage as TransformMetadataStorage } from 'class-transformer/types/MetadataStorage.js';
import type { AnyClass } from '../columns.js';

// class-transformer keeps its decorators' metadata in a storage its index does not export; it is read
// (never changed) from the module its decorators write to. Pinned by src/internals.spec.ts.
const require = createRequire(import.meta.url);
const { defaultMetadataStorage } = require('class-transformer/cjs/storage.js') as { defaultMetadataStorage: TransformMetadataStorage };
const { defaultOptions } = require('class-transformer/cjs/constants/default-options.constant.js') as {
  defaultOptions: ClassTransformOptions;
};

/**
 * Validation compiled from the declarations (docs/architecture.md, "Compiled validation"). The
 * class-validator decorators stay the one declaration of a field; per DTO class their rules, read
 * through class-validator's public metadata API, become one generated function that builds the DTO
 * instance as class-transformer would (same class, same @Transform functions, same copies) and checks
 * it as class-validator would with the body pipes' options. It answers the instance when every rule
 * holds, or `undefined`: then the caller runs class-validator as before, which builds the error
 * envelope, so a refused body gets exactly the answer it got before. Where a rule cannot be compiled,
 * the DTO has no compiled check (`compiledValidationFallbacks` names it and why) and class-validator
 * answers every body of it.
 */

/** The DTO instance, or undefined when some rule does not hold (class-validator then explains). */
export type CompiledCheck = (known: Record<string, unknown>) => object | undefined;

interface Compiled {
  check: CompiledCheck | null;
  /** Why there is no compiled check. */
  reason?: string;
}

const compiled = [new WeakMap<AnyClass, Compiled>(), new WeakMap<AnyClass, Compiled>()];
const fallbacks = new Map<string, string>();

/** The DTOs (with `partial` for update bodies) that class-validator checks, each with the reason. */
export function compiledValidationFallbacks(): ReadonlyMap<string, string> {
  return fallbacks;
}

/**
 * The compiled check of a DTO class, or null when it has none. `partial`: a field whose value is
 * undefined (absent from the body) is not checked, as the partial update pipe ignores its errors.
 */
export function compiledCheckOf(dto: AnyClass, partial: boolean): CompiledCheck | null {
  const cache = compiled[partial ? 1 : 0];
  let entry = cache.get(dto);
  if (!entry) {
    try {
      entry = { check: compile(dto, partial) };
    } catch (error) {
      if (!(error instanceof NotCompilable)) throw error;
      entry = { check: null, reason: error.message };
      fallbacks.set(`${dto.name}${partial ? ' (partial)' : ''}`, error.message);
    }
    cache.set(dto, entry);
  }
  return entry.check;
}

class NotCompilable extends Error {}

/** The options class-transformer hands to a @Transform function (the pipe passes none of its own). */
const transformOptions = Object.freeze({ ...defaultOptions });

/** What `copyValue` answers for a value whose copy is not compiled; the check then refuses the body. */
const UNCOPIED = Object.freeze({});

/**
 * class-transformer's copy of a plain value (no @Type, no implicit conversion): arrays item by item,
 * dates as new dates, primitives as they are. Any other object (JSON's nested objects) is not copied
 * here: the compiled check refuses such a body and class-validator's answer stands.
 */
function copyValue(value: unknown): unknown {
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) {
    const copy: unknown[] = [];
    for (const item of value) {
      const itemCopy = copyValue(item);
      if (itemCopy === UNCOPIED) return UNCOPIED;
      copy.push(itemCopy);
    }
    return copy;
  }
  if (value instanceof Date) return new Date(value.valueOf());
  return UNCOPIED;
}

/** Built-in rules checked in the generated code, by their class-validator names (vetted below). */
const INLINE: Record<string, (v: string, c: unknown[]) => string | null> = {
  isString: (v) => `(typeof ${v} === 'string' || ${v} instanceof String)`,
  isInt: (v) => `(typeof ${v} === 'number' && Number.isInteger(${v}))`,
  isNumber: (v, c) => {
    const options = (c[0] ?? {}) as { allowNaN?: boolean; allowInfinity?: boolean; maxDecimalPlaces?: number };
    if (options.allowNaN || options.allowInfinity || options.maxDecimalPlaces !== undefined) return null;
    return `(typeof ${v} === 'number' && Number.isFinite(${v}))`;
  },
  isBoolean: (v) => `(typeof ${v} === 'boolean' || ${v} instanceof Boolean)`,
  isDate: (v) => `(${v} instanceof Date && !Number.isNaN(${v}.getTime()))`,
  isArray: (v) => `Array.isArray(${v})`,
  isNotEmpty: (v) => `(${v} !== '' && ${v} !== null && ${v} !== undefined)`,
  min: (v, c) => (isNumberLiteral(c[0]) ? `(typeof ${v} === 'number' && ${v} >= ${literal(c[0])})` : null),
  max: (v, c) => (isNumberLiteral(c[0]) ? `(typeof ${v} === 'number' && ${v} <= ${literal(c[0])})` : null),
  arrayMaxSize: (v, c) => (isNumberLiteral(c[0]) ? `(${v} instanceof Array && ${v}.length <= ${literal(c[0])})` : null),
  isIn: (v, c) => {
    const allowed = c[0];
    if (!Array.isArray(allowed) || allowed.length > 64 || !allowed.every(isNumberLiteral)) return null;
    return allowed.length ? `(${allowed.map((a) => `${v} === ${literal(a)}`).join(' || ')})` : 'false';
  },
};

const isNumberLiteral = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value);
const literal = (value: number) => (Object.is(value, -0) ? '-0' : `(${String(value)})`);

/** Values each inlined rule is tried on against the rule's own function before it is trusted. */
function probes(constraints: unknown[]): unknown[] {
  const values: unknown[] = [
    undefined,
    null,
    '',
    ' ',
    'a',
    '1',
    '0',
    'true',
    0,
    -0,
    1,
    -1,
    0.5,
    1.5,
    -1.5,
    2 ** 31,
    -(2 ** 31),
    2 ** 53,
    NaN,
    Infinity,
    -Infinity,
    true,
    false,
    [],
    [1],
    ['a'],
    [null],
    {},
    { length: 0 },
    new Date(0),
    new Date(NaN),
    new String('s'),
    new Boolean(true),
    Number.MAX_SAFE_INTEGER,
  ];
  for (const constraint of constraints.flat()) {
    if (typeof constraint === 'number' && Number.isFinite(constraint)) {
      // Arrays as long as the bound (a fractional bound, such as a money minimum of 0.0001, rounded down).
      values.push(
        constraint,
        constraint - 1,
        constraint + 1,
        constraint - 0.5,
        constraint + 0.5,
        new Array(Math.min(Math.max(Math.floor(constraint), 0), 2000)).fill(1),
        new Array(Math.min(Math.max(Math.floor(constraint) + 1, 0), 2001)).fill(1),
      );
    }
  }
  return values;
}

interface Rule {
  metadata: ValidationMetadata;
  validate: (value: unknown, args: unknown) => unknown;
}

/** The rules class-validator runs for one property, by kind, as its executor groups them. */
interface PropertyRules {
  conditions: ValidationMetadata[];
  defined: Rule[];
  custom: Rule[];
}

function constraintsOf(metadata: ValidationMetadata): Rule[] {
  const storage = getMetadataStorage();
  return storage.getTargetValidatorConstraints(metadata.constraintCls).map((constraint) => {
    if (constraint.async) throw new NotCompilable(`${metadata.propertyName}: the asynchronous rule ${metadata.name ?? constraint.name}`);
    const instance = constraint.instance as { validate: (value: unknown, args: unknown) => unknown };
    return { metadata, validate: (value, args) => instance.validate(value, args) };
  });
}

function compile(dto: AnyClass, partial: boolean): CompiledCheck {
  const storage = getMetadataStorage();
  // What class-validator's executor looks up for this class with the pipe's options (no groups).
  const metadatas = storage.getTargetValidationMetadatas(dto, '', false, false);
  const properties = new Map<string, PropertyRules>();
  for (const metadata of metadatas) {
    if ((metadata.groups && metadata.groups.length) || metadata.always !== undefined)
      throw new NotCompilable(`${metadata.propertyName}: a rule with groups or "always"`);
    let rules = properties.get(metadata.propertyName);
    if (!rules) properties.set(metadata.propertyName, (rules = { conditions: [], defined: [], custom: [] }));
    switch (metadata.type) {
      case ValidationTypes.CONDITIONAL_VALIDATION:
        rules.conditions.push(metadata);
        break;
      case ValidationTypes.IS_DEFINED:
        rules.defined.push(...constraintsOf(metadata));
        break;
      case ValidationTypes.CUSTOM_VALIDATION:
        rules.custom.push(...constraintsOf(metadata));
        break;
      case ValidationTypes.WHITELIST:
        break;
      default:
        throw new NotCompilable(`${metadata.propertyName}: a rule of type ${metadata.type}`);
    }
  }
  const fields = [
    ...new Set(
      getMetadataStorage()
        .getTargetValidationMetadatas(dto, '', true, false)
        .map((m) => m.propertyName),
    ),
  ];
  if (fields.length !== properties.size || fields.some((field) => !properties.has(field)))
    throw new NotCompilable('rules that differ with "always"');
  typedFields(dto, properties);

  // class-transformer: the keys of the body (the declared fields the body has), then the exposed ones.
  if (defaultMetadataStorage.getStrategy(dto) !== 'none' || defaultMetadataStorage.getExcludedMetadatas(dto).length) {
    throw new NotCompilable('a class-transformer strategy or @Exclude');
  }
  const exposed = defaultMetadataStorage.getExposedMetadatas(dto);
  for (const expose of exposed) {
    if (expose.options.name || expose.options.groups?.length || expose.options.since !== undefined || expose.options.until !== undefined) {
      throw new NotCompilable(`${expose.propertyName}: @Expose with options`);
    }
    if (!properties.has(expose.propertyName!)) throw new NotCompilable(`${expose.propertyName}: exposed without validation rules`);
  }
  const exposedFields = defaultMetadataStorage
    .getExposedProperties(dto, TransformationType.PLAIN_TO_CLASS)
    .filter((name) => !fields.includes(name));
  if (exposedFields.length) throw new NotCompilable(`exposed fields without rules: ${exposedFields.join(', ')}`);
  const exposedNames = new Set(defaultMetadataStorage.getExposedProperties(dto, TransformationType.PLAIN_TO_CLASS));
  for (const field of fields) {
    if (defaultMetadataStorage.findTypeMetadata(dto, field)) throw new NotCompilable(`${field}: @Type`);
    const descriptor = Object.getOwnPropertyDescriptor(dto.prototype, field);
    if (descriptor || field in dto.prototype) throw new NotCompilable(`${field}: a prototype member`);
  }
  // A constructor that sets fields: class-validator would drop the undeclared ones; not compiled.
  const empty = new (dto as new () => object)();
  if (Object.keys(empty).length) throw new NotCompilable('a constructor that sets fields');

  const constants: unknown[] = [];
  const constant = (value: unknown) => {
    constants.push(value);
    return `c[${constants.length - 1}]`;
  };
  const key = (field: string) => JSON.stringify(field);
  const lines: string[] = ['const o = new Dto();', 'let v;'];

  // Building the instance, as plainToInstance(dto, known) does.
  const assign = (field: string, read: string, copied: boolean) => {
    const transforms = defaultMetadataStorage
      .findTransformMetadatas(dto, field, TransformationType.PLAIN_TO_CLASS)
      .filter((m) => !m.options || !m.options.groups || !m.options.groups.length);
    for (const transform of transforms) {
      if (transform.options?.since !== undefined || transform.options?.until !== undefined)
        throw new NotCompilable(`${field}: a versioned @Transform`);
    }
    lines.push(`v = ${read};`);
    if (copied) lines.push('if (v === uncopied) return undefined;');
    for (const transform of transforms) {
      lines.push(
        `v = ${constant(transform.transformFn)}({ value: v, key: ${key(field)}, obj: known, type: ${TransformationType.PLAIN_TO_CLASS}, options: options });`,
      );
    }
    lines.push(`o[${key(field)}] = v;`);
  };
  for (const field of fields) {
    lines.push(`if (hasOwn(known, ${key(field)})) {`);
    assign(field, `copy(known[${key(field)}])`, true);
    lines.push('}');
  }
  // An exposed field the body lacks comes after the body's keys, its value undefined before @Transform.
  for (const field of exposedNames) {
    lines.push(`if (!hasOwn(known, ${key(field)})) {`);
    assign(field, 'undefined', false);
    lines.push('}');
  }

  // Checking it, as class-validator's executor does with the body pipes' options.
  for (const [field, rules] of properties) {
    lines.push(`v = o[${key(field)}];`);
    const close: string[] = [];
    if (partial) {
      lines.push('if (v !== undefined) {');
      close.push('}');
    }
    for (const condition of rules.conditions) {
      lines.push(`if (${constant(condition.constraints[0])}(o, v)) {`);
      close.push('}');
    }
    for (const rule of [...rules.defined, ...rules.custom]) {
      lines.push(`if (!(${ruleCode(rule, field, constant)})) return undefined;`);
    }
    lines.push(...close);
  }
  lines.push('return o;');

  const body = lines.join('\n');
  // The template's only text from outside it: property names as JSON strings and finite number literals.
  // eslint-disable-next-line @typescript-eslint/no-implied-eval
  const factory = new Function(
    'Dto',
    'c',
    'hasOwn',
    'copy',
    'uncopied',
    'options',
    'args',
    'eachItem',
    `return function compiledCheck(known) {\n${body}\n};`,
  ) as (...values: unknown[]) => CompiledCheck;
  return factory(dto, constants, Object.hasOwn, copyValue, UNCOPIED, transformOptions, validationArguments, eachItem);
}

/** The items class-validator checks one by one for a rule with `each`. */
function eachItem(value: unknown[] | Set<unknown> | Map<unknown, unknown>): unknown[] {
  if (value instanceof Map) return [...value.values()];
  return Array.isArray(value) ? value : [...value];
}

/** The arguments class-validator gives a rule's own function. */
function validationArguments(object: object, property: string, value: unknown, constraints: unknown[]) {
  return { targetName: object.constructor?.name, property, object, value, constraints };
}

/** The generated test of one rule on `v`, for one value or, with `each`, for each item of an array. */
function ruleCode(rule: Rule, field: string, constant: (value: unknown) => string): string {
  const { metadata } = rule;
  if (metadata.validateIf) throw new NotCompilable(`${field}: a rule with validateIf`);
  const inline = vettedInline(rule);
  const test = (v: string) =>
    inline?.(v) ?? `${constant(rule.validate)}(${v}, args(o, ${JSON.stringify(field)}, v, ${constant(metadata.constraints)}))`;
  if (!metadata.each) return test('v');
  // `each`: every item of an array, Set or Map; any other value is tested as it is.
  return `(Array.isArray(v) || v instanceof Set || v instanceof Map ? eachItem(v).every((i) => ${test('i')}) : ${test('v')})`;
}

/** The inlined code of a built-in rule, if it answers as the rule's own function on every probe. */
function vettedInline(rule: Rule): ((v: string) => string) | null {
  const make = rule.metadata.name ? INLINE[rule.metadata.name] : undefined;
  if (!make) return null;
  const constraints = rule.metadata.constraints ?? [];
  if (make('v', constraints) === null) return null;
  const code = (v: string) => make(v, constraints)!;
  // eslint-disable-next-line @typescript-eslint/no-implied-eval
  const inlined = new Function('v', `return ${code('v')};`) as (value: unknown) => boolean;
  const args = { targetName: 'Probe', property: rule.metadata.propertyName, object: {}, value: undefined, constraints };
  for (const value of probes(constraints)) {
    if (Boolean(inlined(value)) !== Boolean(rule.validate(value, { ...args, value }))) return null;
  }
  return code;
}

/**
 * Every field must have a rule that fixes its accepted value to a primitive, a date or an array of
 * primitives: class-transformer copies nested objects, and such a copy is not compiled.
 */
function typedFields(dto: AnyClass, properties: Map<string, PropertyRules>): void {
  const scalar = new Set(['isString', 'isInt', 'isNumber', 'isBoolean', 'isDate']);
  for (const [field, rules] of properties) {
    const names = rules.custom
      .filter((rule) => vettedInline(rule))
      .map((rule) => `${rule.metadata.each ? 'each:' : ''}${rule.metadata.name}`);
    const typed =
      names.some((name) => scalar.has(name)) ||
      (names.includes('isArray') && names.some((name) => name.startsWith('each:') && scalar.has(name.slice(5))));
    if (!typed) throw new NotCompilable(`${dto.name}.${field}: no rule fixes its type`);
  }
}
