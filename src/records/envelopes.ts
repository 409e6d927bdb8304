import { formatDateTime } from './wire-values.js';

/** One validation error of the 400 envelope (docs/api.md §9.1). */
export interface FieldError {
  AttemptedValue: unknown;
  Message: string;
  PropertyName: string;
}

/** The ActionConfirmation envelope (docs/api.md §9.1, docs/api.md §1.4): always the same eleven keys. */
export interface ActionConfirmation {
  Status: number;
  Message: string | null;
  Value: unknown;
  WasSuccessful: boolean;
  Errors: FieldError[] | null;
  OpenInDialog: boolean;
  OpenInWindow: boolean;
  RedirectURL: string | null;
  JavaScript: string | null;
  UpdatedOn: string | null;
  UpdatedBy: string | null;
}

function confirmation(fields: Partial<ActionConfirmation> & Pick<ActionConfirmation, 'Status' | 'WasSuccessful'>): ActionConfirmation {
  return {
    Status: fields.Status,
    Message: fields.Message ?? null,
    Value: fields.Value ?? null,
    WasSuccessful: fields.WasSuccessful,
    Errors: fields.Errors ?? null,
    OpenInDialog: false,
    OpenInWindow: false,
    RedirectURL: null,
    JavaScript: null,
    UpdatedOn: fields.UpdatedOn ?? null,
    UpdatedBy: fields.UpdatedBy ?? null,
  };
}

export function successConfirmation(message: string, value: unknown, updatedBy: string | null, updatedOn = new Date()): ActionConfirmation {
  return confirmation({
    Status: 200,
    WasSuccessful: true,
    Message: message,
    Value: value,
    UpdatedOn: formatDateTime(updatedOn),
    UpdatedBy: updatedBy,
  });
}

/** A failed action: 400 with the field errors, or a refusal whose Message says why. */
export function failureConfirmation(status: number, message: string, errors: FieldError[] | null = null): ActionConfirmation {
  return confirmation({ Status: status, WasSuccessful: false, Message: message, Errors: errors });
}

export function validationFailure(errors: FieldError[]): ActionConfirmation {
  const first = errors[0];
  return failureConfirmation(400, first ? `${first.PropertyName}: ${first.Message}` : 'The request is not valid.', errors);
}

/** The list envelope of docs/api.md §1.3. */
export interface ListEnvelope<T> {
  Records: T[];
  CurrentPageSize: number;
  CurrentPage: number;
  CurrentOrderField: string;
  CurrentSortDirection: 1 | -1;
  FirstItem: number;
  HasNextPage: boolean;
  HasPreviousPage: boolean;
  LastItem: number;
  PageNumber: number;
  PageSize: number;
  TotalItems: number;
  TotalPages: number;
}

export function listEnvelope<T>(
  records: T[],
  page: { page: number; size: number; orderBy: string; direction: 1 | -1 },
  totalItems: number,
): ListEnvelope<T> {
  const first = records.length ? (page.page - 1) * page.size + 1 : 0;
  const totalPages = Math.ceil(totalItems / page.size);
  return {
    Records: records,
    CurrentPageSize: page.size,
    CurrentPage: page.page,
    CurrentOrderField: page.orderBy,
    CurrentSortDirection: page.direction,
    FirstItem: first,
    HasNextPage: page.page < totalPages,
    HasPreviousPage: page.page > 1,
    LastItem: records.length ? first + records.length - 1 : 0,
    PageNumber: page.page,
    PageSize: page.size,
    TotalItems: totalItems,
    TotalPages: totalPages,
  };
}
