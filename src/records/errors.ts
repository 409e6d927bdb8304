import { HttpException, HttpStatus } from '@nestjs/common';
import { WRITE_ONLY_FIELDS } from './field-changes.js';
import { failureConfirmation, validationFailure, type ActionConfirmation, type FieldError } from './envelopes.js';

/**
 * A response whose body is already in its wire form (refusals, validation failures, AccessDenied,
 * OAuth errors): the filter sends it as it is, recognised by this class (docs/architecture.md).
 */
export class WireResponseException extends HttpException {
  constructor(
    body: ActionConfirmation | Record<string, unknown> | string,
    status: number,
    readonly headers: Record<string, string> = {},
  ) {
    super(body, status);
  }
}

const writeOnly = new Set(WRITE_ONLY_FIELDS);

/** A field error as it may be sent and stored: a write-only field's attempted value is never echoed (docs/api.md §1). */
function withoutSecrets(error: FieldError): FieldError {
  const field = error.PropertyName.slice(error.PropertyName.lastIndexOf('.') + 1);
  return writeOnly.has(field) && error.AttemptedValue !== null ? { ...error, AttemptedValue: null } : error;
}

/** Validation failure: 400 with the ActionConfirmation envelope naming every offending field. */
export class RecordValidationException extends WireResponseException {
  readonly errors: FieldError[];

  constructor(errors: FieldError[]) {
    const sent = errors.map(withoutSecrets);
    super(validationFailure(sent), HttpStatus.BAD_REQUEST);
    this.errors = sent;
  }

  static field(property: string, message: string, attempted: unknown = null): RecordValidationException {
    return new RecordValidationException([{ PropertyName: property, Message: message, AttemptedValue: attempted ?? null }]);
  }
}

/** Unknown id on get, update or delete: 404 with the JSON body "Not found". */
export class RecordNotFoundException extends HttpException {
  constructor() {
    super('Not found', HttpStatus.NOT_FOUND);
  }
}

/** A refused action: 400 ActionConfirmation whose Message says why (docs/api.md §1.2). */
export function refusal(message: string): WireResponseException {
  return new WireResponseException(failureConfirmation(400, message), HttpStatus.BAD_REQUEST);
}
