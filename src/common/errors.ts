import { HttpException, HttpStatus } from '@nestjs/common';
import { validationFailure, type ActionConfirmation, type FieldError } from './envelopes.js';

/** Validation failure: 400 with the ActionConfirmation envelope naming every offending field. */
export class RecordValidationException extends HttpException {
  constructor(readonly errors: FieldError[]) {
    super(validationFailure(errors), HttpStatus.BAD_REQUEST);
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

/** A response whose body is already in its wire form (refusals, AccessDenied, OAuth errors). */
export class WireResponseException extends HttpException {
  constructor(body: ActionConfirmation | Record<string, unknown> | string, status: number, readonly headers: Record<string, string> = {}) {
    super(body, status);
  }
}
