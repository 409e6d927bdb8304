import 'reflect-metadata';
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { getMetadataStorage } from 'class-validator';
import type { AnyClass } from '../columns.js';
import { RecordValidationException } from '../errors.js';
import { compiledCheckOf, compiledValidationFallbacks } from './compiled.js';
import { classValidatorBody, declaredFieldsOf } from './validation.js';

// The differential test of the compiled validation (docs/architecture.md, "Compiled validation"): for
// every DTO class the application declares, thousands of generated bodies — valid ones, each field
// wrong in each way, boundaries — get the same verdict from the compiled check as from class-validator
// with the body pipes' options, and an accepted body the same DTO instance. Seeded: a failure names
// the seed and the body, and reproduces.

const SEED = Number(process.env.VALIDATION_SEED ?? 25);
const RANDOM_BODIES = Number(process.env.VALIDATION_BODIES ?? 500);
/** The record types whose creates are the hot paths: never left to class-validator. */
const HOT = ['ProductDto', 'CoworkerProductDto', 'CoworkerDto', 'CoworkerInvoiceDto', 'InvoiceUpdateDto'];

function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const MISSING = Symbol('missing');
const CHARACTERS = ['a', 'Z', '7', ' ', 'é', 'ß', '😀', '\uFE0F', '\uFE0E', '中', '-', '@', '.', '\n'];

/** Strings of about `length` characters (emoji and variation selectors included). */
function stringsAround(length: number, random: () => number): string[] {
  const out: string[] = [];
  for (const n of [length - 1, length, length + 1]) {
    if (n < 0) continue;
    out.push('x'.repeat(n), '😀'.repeat(n), `${'a'.repeat(Math.max(n - 1, 0))}\uFE0F`);
    const characters: string[] = [];
    while (characters.length < n) characters.push(CHARACTERS[Math.floor(random() * CHARACTERS.length)]);
    out.push(characters.join(''));
  }
  return out;
}

/** Every value the generator tries in a field, from its rules' constraints and from a common pool. */
function candidates(dto: AnyClass, field: string, random: () => number): unknown[] {
  const values: unknown[] = [
    MISSING,
    null,
    undefined,
    '',
    ' ',
    'abc',
    '12',
    '-3',
    '1.5',
    '1e3',
    '0x10',
    'NaN',
    'true',
    'TRUE',
    'false',
    'False',
    'yes',
    0,
    -0,
    1,
    2,
    -1,
    1.5,
    0.0001,
    0.00001,
    1e-7,
    12.34567,
    9_999_999_999_999.9999,
    1e13,
    -1e13,
    1e21,
    NaN,
    Infinity,
    -Infinity,
    2_147_483_647,
    2_147_483_648,
    -2_147_483_647,
    -2_147_483_648,
    -2_147_483_649,
    Number.MAX_SAFE_INTEGER,
    true,
    false,
    [],
    [1],
    [1, 2, 3],
    ['1'],
    [0],
    [-1],
    [1.5],
    [null],
    [[1]],
    [{}],
    [true],
    {},
    { a: 1 },
    { Id: 1 },
    '2025-01-15T10:30:00Z',
    '2025-01-15T10:30:00.123+02:00',
    '2025-01-15',
    '2025-01-15 10:30:00',
    '/Date(1736937000000)/',
    '0999-12-31T23:59:59Z',
    '1000-01-01T00:00:00Z',
    '9999-12-31T23:59:59Z',
    '10000-01-01T00:00:00Z',
    '2025-13-01T00:00:00Z',
    '2025-02-30T00:00:00Z',
    'not a date',
    1_736_937_000_000,
    'a@example.com',
    ' Mixed.Case@Example.COM ',
    'bad@',
    '@example.com',
    `${'x'.repeat(250)}@example.com`,
    `${'İ'.repeat(130)}@example.com`,
    'Product-Create',
    'coworker-list',
    'Product-Fly',
    ['Product-Create', 'Invoice-List'],
    ['Product-Fly'],
    ['Product-Create', 3],
    'JBSWY3DPEHPK3PXPJBSWY3DPEH',
    'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP==',
    'JBSWY3DP1',
    'password1',
    'short',
  ];
  for (const rule of getMetadataStorage().getTargetValidationMetadatas(dto, '', false, false)) {
    if (rule.propertyName !== field) continue;
    for (const constraint of (rule.constraints ?? []).flat()) {
      if (typeof constraint !== 'number' || !Number.isFinite(constraint)) continue;
      values.push(constraint - 1, constraint, constraint + 1, constraint - 0.5, constraint + 0.5, constraint + 0.0001);
      if (rule.name === 'maxLength' || rule.name === 'minLength') values.push(...stringsAround(constraint, random));
      if (rule.name === 'arrayMaxSize')
        values.push(Array(constraint).fill(1), Array(constraint + 1).fill(1), Array(constraint).fill('Product-List'));
      if (rule.name === 'min' || rule.name === 'max') values.push([constraint], [constraint - 1], [constraint + 1], String(constraint));
    }
    if (rule.name === 'isIn') {
      for (const allowed of rule.constraints[0] as unknown[])
        values.push(allowed, typeof allowed === 'number' ? allowed + 0.5 : allowed, String(allowed));
    }
  }
  return values;
}

type Verdict = { accepted: true; instance: object } | { accepted: false };

async function classic(dto: AnyClass, known: Record<string, unknown>, partial: boolean): Promise<Verdict> {
  try {
    return { accepted: true, instance: await classValidatorBody<object>(dto as new () => object, known, partial) };
  } catch (error) {
    if (error instanceof RecordValidationException) return { accepted: false };
    throw error;
  }
}

const show = (value: unknown) =>
  JSON.stringify(value, (_key, v: unknown) =>
    typeof v === 'number' && !Number.isFinite(v) ? String(v) : v === undefined ? '<undefined>' : v,
  );

/** A body as the request would give it, fresh for each side (class-transformer and the pipe touch it). */
function bodyOf(fields: Map<string, unknown>): Record<string, unknown> {
  const body: Record<string, unknown> = { UnknownField: 'dropped', Id: 5 };
  for (const [field, value] of fields) if (value !== MISSING) body[field] = structuredClone(value);
  const known: Record<string, unknown> = {};
  for (const [field, value] of Object.entries(body)) if (fields.has(field)) known[field] = value;
  return known;
}

describe('compiled validation against class-validator (differential)', () => {
  let dtos: AnyClass[] = [];

  before(async () => {
    await import('../../app.module.js');
    const storage = getMetadataStorage() as unknown as { validationMetadatas: Map<AnyClass, unknown> };
    dtos = [...storage.validationMetadatas.keys()].filter((dto) => declaredFieldsOf(dto as new () => unknown).length > 0);
  });

  it('finds the DTO classes of the application, the hot ones among them, all compiled', () => {
    assert.ok(dtos.length >= 30, `only ${dtos.length} DTO classes found`);
    for (const name of HOT)
      assert.ok(
        dtos.some((dto) => dto.name === name),
        `${name} is not among the DTO classes`,
      );
    for (const dto of dtos) {
      compiledCheckOf(dto, false);
      compiledCheckOf(dto, true);
    }
    assert.deepEqual([...compiledValidationFallbacks()], [], 'DTOs left to class-validator');
  });

  for (const partial of [false, true]) {
    it(`gives class-validator's verdict and instance on every DTO (${partial ? 'partial update' : 'create and full update'})`, async () => {
      const random = mulberry32(SEED + (partial ? 1 : 0));
      let total = 0;
      for (const dto of dtos) {
        const check = compiledCheckOf(dto, partial)!;
        const fields = declaredFieldsOf(dto as new () => unknown);
        const pools = new Map(fields.map((field) => [field, candidates(dto, field, random)]));
        // The values each field accepts on its own (a partial body with only that field), as the compiled
        // check finds them: they only choose the bodies; every verdict below is class-validator's.
        const alone = compiledCheckOf(dto, true)!;
        const good = new Map<string, unknown[]>();
        for (const field of fields) {
          const accepted = pools
            .get(field)!
            .filter((value) => value !== MISSING && value !== undefined && alone(bodyOf(new Map([[field, value]]))) !== undefined);
          good.set(field, accepted.length ? accepted : [MISSING]);
        }
        const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)];
        const validBase = () => new Map(fields.map((field) => [field, pick(good.get(field)!)]));
        const bodies: Map<string, unknown>[] = [];
        // Each field, each value, on an otherwise valid body.
        for (const field of fields) {
          for (const value of pools.get(field)!) bodies.push(new Map([...validBase(), [field, value]]));
        }
        // Random mixes: mostly valid fields, some wrong, some missing.
        for (let i = 0; i < RANDOM_BODIES; i++) {
          const body = validBase();
          for (const field of fields) {
            const roll = random();
            if (roll < 0.08) body.set(field, pick(pools.get(field)!));
            else if (roll < 0.16) body.set(field, MISSING);
          }
          bodies.push(body);
        }
        let accepted = 0;
        const started = performance.now();
        for (const body of bodies) {
          const expected = await classic(dto, bodyOf(body), partial);
          const known = bodyOf(body);
          const before = show(known);
          const instance = check(known);
          const context = `${dto.name}${partial ? ' (partial)' : ''}, seed ${SEED}, body ${show(Object.fromEntries([...body].filter(([, v]) => v !== MISSING)))}`;
          assert.equal(show(known), before, `the compiled check changed the body: ${context}`);
          assert.equal(
            instance !== undefined,
            expected.accepted,
            `verdict differs (class-validator ${expected.accepted ? 'accepts' : 'refuses'}): ${context}`,
          );
          if (expected.accepted) {
            accepted++;
            assert.deepStrictEqual(instance, expected.instance, `instance differs: ${context}`);
            assert.deepEqual(Object.keys(instance), Object.keys(expected.instance), `key order differs: ${context}`);
          }
        }
        total += bodies.length;
        if (process.env.VALIDATION_VERBOSE)
          console.log(
            `${dto.name}${partial ? ' (partial)' : ''}: ${bodies.length} bodies, ${accepted} valid, ${Math.round(performance.now() - started)} ms`,
          );
        assert.ok(accepted >= bodies.length / 20, `${dto.name}: only ${accepted} of ${bodies.length} generated bodies were valid`);
      }
      assert.ok(total >= dtos.length * 1000, `only ${total} bodies`);
    });
  }
});
