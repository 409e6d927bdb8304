import { getMetadataStorage, type ValidatorOptions } from 'class-validator';
import { ValidationPipe, type ArgumentMetadata, type ValidationError, type ValidationPipeOptions } from '@nestjs/common';
import type { FieldError } from '../envelopes.js';
import { RecordValidationException } from '../errors.js';
import { compiledCheckOf } from './compiled.js';

function toFieldErrors(errors: ValidationError[], prefix = ''): FieldError[] {
  return errors.flatMap((error) => {
    const name = prefix + error.property;
    const own = Object.values(error.constraints ?? {})
      .slice(0, 1)
      .map((message) => ({
        AttemptedValue: error.value ?? null,
        Message: message,
        PropertyName: name,
      }));
    return [...own, ...toFieldErrors(error.children ?? [], `${name}.`)];
  });
}

/**
 * One set of validation options for every body (house style 3): unknown fields are dropped, not
 * rejected (clients PUT back what they GET), and a failure is the 400 ActionConfirmation.
 */
export const validationOptions: ValidationPipeOptions = {
  transform: true,
  whitelist: true,
  forbidNonWhitelisted: false,
  forbidUnknownValues: false,
  stopAtFirstError: true,
  validationError: { target: false, value: true },
  exceptionFactory: (errors) => new RecordValidationException(toFieldErrors(errors)),
};

/**
 * The global pipe. Route parameters pass it untouched: with `transform` Nest would turn `"1.0"`,
 * `"0x3"` or `"1e3"` into numbers before the route's own pipe sees them, so `DELETE /…/1.0` acted on
 * record 1. Every id in a path is parsed from its raw text by `parseRecordId` (record-id.pipe.ts).
 */
class ServiceValidationPipe extends ValidationPipe {
  override transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    return metadata.type === 'param' ? Promise.resolve(value) : super.transform(value, metadata);
  }
}

export const createValidationPipe = (): ValidationPipe => new ServiceValidationPipe(validationOptions);

const bodyPipe = createValidationPipe();

/**
 * A partial update's pipe (docs/api.md §1.2): a field absent from the body is not checked, a required
 * one included (it keeps its stored value); a field present is checked as on create, so an explicit
 * null of a required field is still refused.
 */
class PartialValidationPipe extends ValidationPipe {
  protected override async validate(object: object, options?: ValidatorOptions): Promise<ValidationError[]> {
    // A body field absent is undefined on the DTO; JSON and forms cannot give undefined otherwise.
    const errors = await super.validate(object, options);
    return errors.filter((error) => error.value !== undefined);
  }
}

const partialBodyPipe = new PartialValidationPipe(validationOptions);

const declaredFields = new WeakMap<object, readonly string[]>();

/** The fields a DTO class declares rules for: the ones whitelisting would keep. */
export function declaredFieldsOf(dto: new () => unknown): readonly string[] {
  let fields = declaredFields.get(dto);
  if (!fields) {
    fields = [
      ...new Set(
        getMetadataStorage()
          .getTargetValidationMetadatas(dto, '', true, false)
          .map((m) => m.propertyName),
      ),
    ];
    declaredFields.set(dto, fields);
  }
  return fields;
}

/**
 * Validates a request body against a DTO class outside of a route parameter (generic controllers).
 * Only the declared fields are handed on: unknown keys are dropped here, at the cost of the DTO's own
 * field count, before class-transformer (whose cost grows with the square of a body's key count) sees them.
 * A body the DTO's compiled check accepts (compiled.ts) is answered without class-transformer and
 * class-validator, with the same instance they would build.
 */
export async function validateBody<T>(dto: new () => T, body: unknown, partial = false): Promise<T> {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw RecordValidationException.field('Body', 'The request body must be a JSON object.', null);
  }
  const known: Record<string, unknown> = {};
  for (const field of declaredFieldsOf(dto)) if (Object.hasOwn(body, field)) known[field] = (body as Record<string, unknown>)[field];
  // The compiled rules answer a valid body; a refused one goes through class-validator, which explains.
  const accepted = compiledCheckOf(dto, partial)?.(known);
  if (accepted) return accepted as T;
  return classValidatorBody(dto, known, partial);
}

/** The declared fields of a body (`known`) checked by class-transformer and class-validator, as the pipes do. */
export async function classValidatorBody<T>(dto: new () => T, known: Record<string, unknown>, partial = false): Promise<T> {
  return (await (partial ? partialBodyPipe : bodyPipe).transform(known, { type: 'body', metatype: dto })) as T;
}
