import { ApiResponse } from '@nestjs/swagger';
import type { WireKind } from '../records/columns.js';

// The vocabulary of the OpenAPI document (docs/api.md §10): schemas of wire values and envelopes, and
// the answers the hand-written routes declare with them. The document itself is built by
// openapi-document.ts.

export type Schema = Record<string, unknown>;
export type Operation = {
  operationId?: string;
  summary?: string;
  parameters?: Array<Record<string, unknown>>;
  requestBody?: { required?: boolean; content: Record<string, { schema: Schema }> };
  responses: Record<string, { description: string; headers?: Record<string, unknown>; content?: Record<string, { schema: Schema }> }>;
  security?: Array<Record<string, string[]>>;
  'x-public'?: unknown;
  tags?: string[];
};

/** A `$ref` to a schema of the document. */
export const ref = (name: string): Schema => ({ $ref: `#/components/schemas/${name}` });
/** A JSON body of a schema. */
export const json = (schema: Schema) => ({ 'application/json': { schema } });

/** The JSON schema of a wire value of a kind (docs/api.md §1: integers, money as numbers, UTC date-times). */
export function wireSchema(kind: WireKind, nullable: boolean, description?: string): Schema {
  const schema: Schema = {
    int: { type: 'integer', format: 'int32' },
    money: { type: 'number', description: 'Money: an exact decimal with at most 4 decimal places.' },
    bool: { type: 'boolean' },
    datetime: { type: 'string', format: 'date-time', example: '2025-01-15T10:30:00Z' },
    text: { type: 'string' },
    idList: { type: 'array', items: { type: 'integer', format: 'int32' } },
  }[kind];
  if (description) schema.description = description;
  return nullable ? { ...schema, nullable: true } : schema;
}

/** An object schema whose properties are all present in every answer. */
export const objectSchema = (properties: Record<string, Schema>, description?: string): Schema => ({
  type: 'object',
  ...(description ? { description } : {}),
  required: Object.keys(properties),
  properties,
});

const FIELD_ERROR = objectSchema(
  {
    AttemptedValue: { description: 'The value sent (any JSON value, null when absent).' },
    Message: { type: 'string' },
    PropertyName: { type: 'string' },
  },
  'One validation error (docs/api.md §1.2).',
);

const ACTION_CONFIRMATION = objectSchema(
  {
    Status: { type: 'integer', description: 'The HTTP status of the answer.' },
    Message: { type: 'string', nullable: true },
    Value: { description: 'What the action produced: `{Id}` on create, a token on the token refresh operations, null on failures.' },
    WasSuccessful: { type: 'boolean' },
    Errors: {
      type: 'array',
      nullable: true,
      items: ref('FieldError'),
      description: 'The validation errors of a 400, the first one also in Message; null otherwise.',
    },
    OpenInDialog: { type: 'boolean' },
    OpenInWindow: { type: 'boolean' },
    RedirectURL: { type: 'string', nullable: true },
    JavaScript: { type: 'string', nullable: true },
    UpdatedOn: { type: 'string', format: 'date-time', nullable: true },
    UpdatedBy: { type: 'string', nullable: true },
  },
  'The ActionConfirmation envelope (docs/api.md §1.4): the same eleven keys on every write and every refused one.',
);

/** The list envelope (docs/api.md §1.3) around records of one schema. */
export function listEnvelopeSchema(records: Schema, description: string): Schema {
  return objectSchema(
    {
      Records: { type: 'array', items: records },
      CurrentPageSize: { type: 'integer' },
      CurrentPage: { type: 'integer' },
      CurrentOrderField: { type: 'string' },
      CurrentSortDirection: { type: 'integer', enum: [1, -1] },
      FirstItem: { type: 'integer', description: '1-based position of the first record; 0 on an empty page.' },
      HasNextPage: { type: 'boolean' },
      HasPreviousPage: { type: 'boolean' },
      LastItem: { type: 'integer' },
      PageNumber: { type: 'integer' },
      PageSize: { type: 'integer' },
      TotalItems: { type: 'integer', description: 'Exact count of the records the filters select.' },
      TotalPages: { type: 'integer' },
    },
    description,
  );
}

/** Schemas every document has: the envelopes, the error bodies and the history of a record. */
export const SHARED_SCHEMAS: Record<string, Schema> = {
  FieldError: FIELD_ERROR,
  ActionConfirmation: ACTION_CONFIRMATION,
  CreateConfirmation: {
    allOf: [ref('ActionConfirmation'), objectSchema({ Value: objectSchema({ Id: { type: 'integer', format: 'int32' } }) })],
    description: "A successful create: Value holds the new record's Id.",
  },
  NotFound: { type: 'string', enum: ['Not found'], description: 'An unknown id (docs/api.md §1.2): the JSON string "Not found".' },
  Unauthorized: objectSchema(
    { Message: { type: 'string', example: 'Authorization has been denied for this request.' } },
    "Missing or bad credentials, a missing role, or a record outside the caller's businesses (docs/api.md §2.2).",
  ),
  FieldChange: objectSchema({
    Field: { type: 'string' },
    From: { description: 'The value before (any JSON value; null on a create and for write-only fields).' },
    To: { description: 'The value after (any JSON value; null for write-only fields).' },
  }),
  HistoryEntry: objectSchema(
    {
      Id: { type: 'integer' },
      Entity: { type: 'string' },
      RecordId: { type: 'integer' },
      Action: { type: 'string', enum: ['Create', 'Update', 'Delete'] },
      On: { type: 'string', format: 'date-time' },
      By: { type: 'string', nullable: true },
      RequestId: { type: 'string', nullable: true },
      Changes: { type: 'array', items: ref('FieldChange') },
    },
    'One change of a record (docs/api.md §6).',
  ),
  HistoryList: listEnvelopeSchema(ref('HistoryEntry'), "A page of a record's history, newest first."),
};

export type SchemaSource = Record<string, Schema> | ((schemas: Readonly<Record<string, Schema>>) => Record<string, Schema>);
/** The schemas the routes beside the record machinery added, in the order they were added. */
export const registeredSchemas: SchemaSource[] = [];

/**
 * Adds schemas to the document for the routes beside the record machinery (the token endpoint, the
 * public events): given outright, or built from the schemas already there (the record types').
 */
export function documentSchemas(source: SchemaSource): void {
  registeredSchemas.push(source);
}

/** An answer of a route, with its body schema (`ref('ActionConfirmation')`); no schema for an empty body. */
export const ApiAnswer = (status: number, description: string, schema?: Schema) =>
  ApiResponse({ status, description, ...(schema ? { schema } : {}) });

/** The listed properties of an object schema, and more. */
export function pickProperties(
  schema: Schema | undefined,
  names: readonly string[],
  more: Record<string, Schema> = {},
  description?: string,
): Schema {
  const properties = (schema?.properties ?? {}) as Record<string, Schema>;
  return objectSchema({ ...Object.fromEntries(names.map((name) => [name, properties[name] ?? {}])), ...more }, description);
}
