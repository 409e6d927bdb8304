import { getMetadataStorage } from 'class-validator';
import { ValidationPipe, type ValidationError, type ValidationPipeOptions } from '@nestjs/common';
import type { FieldError } from '../envelopes.js';
import { RecordValidationException } from '../errors.js';
import { cacheValidationMetadata } from './metadata-cache.js';

cacheValidationMetadata();

function toFieldErrors(errors: ValidationError[], prefix = ''): FieldError[] {
  return errors.flatMap((error) => {
    const name = prefix + error.property;
    const own = Object.values(error.constraints ?? {}).slice(0, 1).map((message) => ({
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

export const createValidationPipe = () => new ValidationPipe(validationOptions);

const bodyPipe = createValidationPipe();

const declaredFields = new WeakMap<object, readonly string[]>();

/** The fields a DTO class declares rules for: the ones whitelisting would keep. */
export function declaredFieldsOf(dto: new () => unknown): readonly string[] {
  let fields = declaredFields.get(dto);
  if (!fields) {
    fields = [...new Set(getMetadataStorage().getTargetValidationMetadatas(dto, '', true, false).map((m) => m.propertyName))];
    declaredFields.set(dto, fields);
  }
  return fields;
}

/**
 * Validates a request body against a DTO class outside of a route parameter (generic controllers).
 * Only the declared fields are handed on: unknown keys are dropped here, at the cost of the DTO's own
 * field count, before class-transformer (whose cost grows with the square of a body's key count) sees them.
 */
export async function validateBody<T>(dto: new () => T, body: unknown): Promise<T> {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw RecordValidationException.field('Body', 'The request body must be a JSON object.', null);
  }
  const known: Record<string, unknown> = {};
  for (const field of declaredFieldsOf(dto)) if (Object.hasOwn(body, field)) known[field] = (body as Record<string, unknown>)[field];
  return (await bodyPipe.transform(known, { type: 'body', metatype: dto })) as T;
}
