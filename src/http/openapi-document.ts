import type { OpenAPIObject } from '@nestjs/swagger';
import { PUBLIC_MARK } from '../platform/access.js';
import type { WireKind } from '../records/columns.js';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from '../records/list-query.js';
import { ALL_OPERATIONS, type RecordDefinition, type RecordOperation } from '../records/record-definition.js';
import { compileRecordPlan, type RecordPlan, type SqlDialect } from '../records/record-plan.js';
import {
  json,
  listEnvelopeSchema,
  objectSchema,
  ref,
  registeredSchemas,
  SHARED_SCHEMAS,
  wireSchema,
  type Operation,
  type Schema,
} from './openapi.js';
import type { RecordRoute } from './record-router.js';

// The OpenAPI document describes every answer from the declarations that produce it (docs/api.md §10):
// a record type's wire record from its entity columns and its definition's reads, lists and computed
// fields (the same plan its reads are compiled from), its bodies from its DTOs' validation decorators,
// and the envelopes (§1.3, §1.4) once. Nothing per record type is written by hand.

// ---- record routes (record-router.ts) ----

/** `GET …/commands` (docs/billing.md). */
const COMMAND_LIST = {
  type: 'array',
  items: objectSchema({
    Key: { type: 'string' },
    Name: { type: 'string' },
    AppliesOnlyToOneEntity: { type: 'boolean' },
    AppliesOnlyToMultipleEntities: { type: 'boolean' },
    AppliesOnlyToTwoEntities: { type: 'boolean' },
    DisplayInDropdown: { type: 'boolean' },
    NeedsEntitiesToRun: { type: 'boolean' },
    Order: { type: 'integer' },
    RequiresParameters: { type: 'array', items: objectSchema({ Name: { type: 'string' }, Type: { type: 'string' } }) },
  }),
};

const UNAUTHORIZED = { description: 'Authorization has been denied for this request.' };

/** The bodies the record routes take, for the document's schemas. */
export const recordBodies = (routes: readonly RecordRoute[]): Array<new () => unknown> => [
  ...new Set(routes.flatMap((route) => (route.document?.body ? [route.document.body] : []))),
];

/** The collection paths of the record types (`/api/billing/products`). */
export const recordBasePaths = (routes: readonly RecordRoute[]): ReadonlySet<string> =>
  new Set(routes.map((route) => `/api/${route.definition.path}`));

/**
 * The operations of the record routes, from the router's table: operation id, parameters, body,
 * security, summary and tag. `describeDocument` then adds what follows from the definitions (list
 * parameters, answers, schemas), as for every operation.
 */
export function documentRecordRoutes(document: OpenAPIObject, routes: readonly RecordRoute[]): void {
  for (const route of routes) {
    const about = route.document;
    if (!about) continue; // the 405 answers of operations a type does not offer
    const path = route.path.replace(/:(\w+)/g, '{$1}');
    const parameters: Array<Record<string, unknown>> = route.path.endsWith('/:id')
      ? [{ name: 'id', required: true, in: 'path', schema: { type: 'number' } }]
      : [];
    for (const name of about.query ?? []) parameters.push({ name, required: false, in: 'query', schema: {} });
    const responses: Operation['responses'] = { 200: { description: about.ok ?? '' }, 401: UNAUTHORIZED };
    if (route.operation === 'commands') responses[200].content = json(COMMAND_LIST);
    if (route.operation === 'runcommand') responses[200].content = json(ref('ActionConfirmation'));
    const operation: Operation = {
      operationId: `${route.definition.name}RecordController_${about.key}`,
      parameters,
      ...(about.body ? { requestBody: { required: true, content: json(ref(about.body.name)) } } : {}),
      responses,
      security: [{ bearer: [] }, { basic: [] }],
      summary: about.summary,
      tags: [route.definition.name],
    };
    ((document.paths[path] ??= {}) as Record<string, Operation>)[route.method.toLowerCase()] = operation;
  }
}

// ---- record types ----

interface RecordPaths {
  definition: RecordDefinition<any>;
  plan: RecordPlan;
}

/** The wire record of a type: every field the plan reads, then the computed ones and the common extras. */
function recordSchema(definition: RecordDefinition<any>, plan: RecordPlan, dialect: SqlDialect, bodies: Schema[]): Schema {
  const properties: Record<string, Schema> = {};
  const reads = definition.reads ?? {};
  for (const [name, kind] of plan.outputs) {
    const column = plan.columns.get(name);
    const read = reads[name];
    let nullable = true;
    if (column) nullable = column.nullable;
    else if (read && 'sql' in read) nullable = read.nullable ?? true;
    else if (read) {
      // A joined field is null when the record's own key is null or the joined column is nullable.
      const own = plan.columns.get(read.on)?.nullable ?? true;
      const joined = dialect.dataSource.getMetadata(read.from()).findColumnWithPropertyName(read.column)?.isNullable ?? true;
      nullable = own || joined;
    }
    // An id list reads as [] when empty, never null.
    properties[name] = wireSchema(
      kind,
      nullable && kind !== 'idList',
      COMMON_FIELD_DESCRIPTIONS[name] ?? (read ? 'Read-only.' : undefined),
    );
  }
  for (const name of Object.keys(definition.computed ?? {})) {
    const declared = definition.computedTypes?.[name];
    if (declared && 'schema' in declared) properties[name] = declared.schema;
    else if (declared) properties[name] = wireSchema(declared.kind, declared.nullable ?? true, declared.description ?? 'Read-only.');
    else if (!properties[name]) properties[name] = { description: 'Read-only, computed (any JSON value).' };
    // (a computed field replacing a read one, undeclared, keeps the read one's type)
  }
  // A field the body also carries reads back as it was written: its enumeration, its list's items.
  for (const [name, property] of Object.entries(properties)) {
    const given = bodies.map((body) => (body.properties as Record<string, Schema> | undefined)?.[name]).find(Boolean);
    if (!given) continue;
    if (Array.isArray(given.enum) && property.type === given.type) property.enum = property.nullable ? [...given.enum, null] : given.enum;
    if (given.items && property.type === 'array') property.items = given.items;
    if (given.description && !property.description) property.description = given.description;
  }
  properties.ToStringText = { type: 'string', description: 'Display text.' };
  properties.LocalizationDetails = { type: 'object', nullable: true, description: 'Always null.' };
  properties.CustomFields = { type: 'object', nullable: true, description: 'Always null.' };
  return objectSchema(properties, `A ${definition.name} as every read answers it (docs/api.md §1.1, §3).`);
}

const COMMON_FIELD_DESCRIPTIONS: Record<string, string> = {
  Id: 'Read-only.',
  UniqueId: 'Read-only: a UUID v4 set at creation.',
  CreatedOn: 'Read-only.',
  UpdatedOn: 'Read-only.',
  UpdatedBy: 'Read-only: the email of the last writer.',
  IsNew: 'Read-only: true until the first update.',
};

const PAGE_PARAMETERS = [
  { name: 'page', in: 'query', required: false, description: 'Page number, from 1.', schema: { type: 'integer', minimum: 1, default: 1 } },
  {
    name: 'size',
    in: 'query',
    required: false,
    description: `Page size, clamped to 1..${MAX_PAGE_SIZE}.`,
    schema: { type: 'integer', default: DEFAULT_PAGE_SIZE },
  },
];

/**
 * The list parameters of a type (docs/api.md §1.3): paging, sorting and its filters. The batch get the
 * list route also answers (`id=[1,2,3]`) is documented as its own operation, `…/batch`.
 */
function listParameters(definition: RecordDefinition<any>, plan: RecordPlan): Array<Record<string, unknown>> {
  const { fields, navigations = {} } = plan.listSchema;
  const scalar = fields.filter((field) => field.kind !== 'idList');
  // No parameter has an example: Swagger UI's "Try it out" would send it (a batch get instead of the list).
  const parameters: Array<Record<string, unknown>> = [
    ...PAGE_PARAMETERS,
    {
      name: 'orderBy',
      in: 'query',
      required: false,
      description: 'The field to sort by (default Id; case-insensitive).',
      schema: { type: 'string', enum: scalar.map((f) => f.name) },
    },
    {
      name: 'dir',
      in: 'query',
      required: false,
      description: 'Sort direction: 1, 0, asc, Ascending (default), or -1, desc, Descending.',
      schema: { type: 'string', enum: ['1', '0', 'asc', 'Ascending', '-1', 'desc', 'Descending'] },
    },
  ];
  const filterSchema = (kind: WireKind): Schema =>
    kind === 'datetime'
      ? { type: 'string', description: 'A date (2025-01-15) or date-time (UTC unless an offset is given).' }
      : wireSchema(kind, false);
  const prefix = definition.name;
  for (const field of scalar) {
    const how = field.kind === 'text' ? 'contains (case-insensitive)' : 'equals';
    parameters.push({
      name: `${prefix}_${field.name}`,
      in: 'query',
      required: false,
      description: `Filter: ${field.name} ${how}.`,
      schema: filterSchema(field.kind),
    });
  }
  for (const [navigation, field] of Object.entries(navigations)) {
    if (scalar.some((f) => f.name === navigation)) continue;
    parameters.push({
      name: `${prefix}_${navigation}`,
      in: 'query',
      required: false,
      description: `Filter: ${field} equals (by its navigation name).`,
      schema: { type: 'integer' },
    });
  }
  for (const field of scalar.filter((f) => f.kind === 'int' || f.kind === 'money' || f.kind === 'datetime')) {
    for (const bound of ['from', 'to'] as const) {
      const end = bound === 'from' ? 'at least' : 'at most (a date alone covers that whole day)';
      parameters.push({
        name: `${bound}_${prefix}_${field.name}`,
        in: 'query',
        required: false,
        description: `Range: ${field.name} ${end}.`,
        schema: filterSchema(field.kind),
      });
    }
  }
  return parameters;
}

const BATCH_IDS = {
  name: 'id',
  in: 'query',
  required: true,
  schema: { type: 'string', pattern: '^\\[?\\d+(,\\d+)*\\]?$' },
  description: `The ids, [1,2,3] or 1,2,3 (at most ${MAX_PAGE_SIZE}). The list route answers the same with ?id=[1,2,3], as the platform's clients send it.`,
};

const ID_PARAMETER = { name: 'id', in: 'path', required: true, schema: { type: 'integer', format: 'int32', minimum: 1 } };

/** Sets an operation's answer of a status (keeping headers documented elsewhere). */
function respond(operation: Operation, status: string, description: string, schema?: Schema): void {
  const existing = operation.responses[status];
  operation.responses[status] = {
    ...existing,
    description: existing?.description && status !== '200' ? existing.description : description,
    ...(schema ? { content: json(schema) } : {}),
  };
}

const failure = (description: string) => [description, ref('ActionConfirmation')] as const;

function describeRecordOperations(paths: OpenAPIObject['paths'], { definition, plan }: RecordPaths): void {
  const base = `/api/${definition.path}`;
  const name = definition.name;
  const offered = new Set<RecordOperation>(definition.operations ?? ALL_OPERATIONS);
  const collection = paths[base] as Record<string, Operation> | undefined;
  const one = paths[`${base}/{id}`] as Record<string, Operation> | undefined;
  const history = paths[`${base}/{id}/history`] as Record<string, Operation> | undefined;
  const updateDto = definition.updateDto ?? definition.dto;

  const list = collection?.get;
  if (list && offered.has('list')) {
    list.parameters = listParameters(definition, plan);
    respond(list, '200', `A page of ${name} records in the list envelope.`, ref(`${name}List`));
    respond(list, '400', ...failure('An unknown orderBy or filter field, or a malformed value.'));
  }
  const batch = (paths[`${base}/batch`] as Record<string, Operation> | undefined)?.get;
  if (batch && offered.has('list')) {
    batch.parameters = [BATCH_IDS];
    respond(
      batch,
      '200',
      `The ${name} records asked for, in ascending Id order (unknown ids, and records outside the caller's businesses, left out).`,
      { type: 'array', items: ref(name) },
    );
    respond(batch, '400', ...failure('id is missing or is not a list of ids.'));
  }
  const get = one?.get;
  if (get && offered.has('get')) {
    respond(get, '200', `The ${name}.`, ref(name));
    respond(get, '404', 'No such record.', ref('NotFound'));
  }
  if (history?.get) {
    history.get.parameters = [ID_PARAMETER, ...PAGE_PARAMETERS];
    respond(history.get, '200', "The record's changes, newest first.", ref('HistoryList'));
    respond(history.get, '404', 'No such record and no history.', ref('NotFound'));
  }
  const create = collection?.post;
  if (create) {
    const created = definition.createdValue
      ? {
          allOf: [
            ref('ActionConfirmation'),
            objectSchema({ Value: objectSchema({ Id: { type: 'integer', format: 'int32' }, ...definition.createdValue }) }),
          ],
        }
      : ref('CreateConfirmation');
    respond(create, '200', `${name} was successfully created.`, created);
    respond(create, '400', ...failure('The body is not valid: Errors names each field (docs/api.md §1.2).'));
    respond(create, '415', ...failure('The body is neither JSON nor form-encoded.'));
  }
  for (const [operation, idInPath] of [
    [collection?.put, false],
    [one?.put, true],
  ] as const) {
    if (!operation) continue;
    respond(operation, '200', `${name} was successfully updated.`, ref('ActionConfirmation'));
    respond(operation, '400', ...failure('The body is not valid (Errors names each field), or the Id is missing.'));
    respond(operation, '404', 'No such record.', ref('NotFound'));
    if (!idInPath && updateDto && operation.requestBody) {
      operation.requestBody.content = json({
        allOf: [
          ref(updateDto.name),
          objectSchema({ Id: { type: 'integer', format: 'int32', minimum: 1, description: 'The record to update.' } }),
        ],
      });
    }
  }
  const remove = one?.delete;
  if (remove) {
    respond(remove, '200', `${name} was successfully deleted.`, ref('ActionConfirmation'));
    respond(remove, '400', ...failure('Other records refer to it; Message says which. Nothing was removed.'));
    respond(remove, '404', 'No such record.', ref('NotFound'));
  }
  // Form bodies are accepted as the same JSON body (docs/api.md §1).
  for (const operation of [create, collection?.put, one?.put]) {
    const content = operation?.requestBody?.content;
    if (content?.['application/json']) content['application/x-www-form-urlencoded'] = content['application/json'];
  }
}

/**
 * Completes the document Nest built from the controllers: the record types' wire schemas, list
 * envelopes, list parameters and answers, the shared envelopes, security on every operation (`[]` on
 * public ones), the 401 body, and the servers.
 */
export function describeDocument(document: OpenAPIObject, dialect: SqlDialect, types: readonly RecordDefinition<any>[]): void {
  document.components ??= {};
  const schemas = (document.components.schemas ??= {}) as Record<string, Schema>;
  Object.assign(schemas, SHARED_SCHEMAS);
  for (const definition of types) {
    if (!document.paths[`/api/${definition.path}`] && !document.paths[`/api/${definition.path}/{id}`]) continue; // module not loaded
    const plan = compileRecordPlan(definition, dialect);
    const bodies = [definition.dto, definition.updateDto].flatMap((dto) => (dto && schemas[dto.name] ? [schemas[dto.name]] : []));
    schemas[definition.name] = recordSchema(definition, plan, dialect, bodies);
    schemas[`${definition.name}List`] = listEnvelopeSchema(
      ref(definition.name),
      `A page of ${definition.name} records (docs/api.md §1.3).`,
    );
    describeRecordOperations(document.paths, { definition, plan });
  }
  for (const source of registeredSchemas) Object.assign(schemas, typeof source === 'function' ? source(schemas) : source);
  for (const item of Object.values(document.paths)) {
    for (const operation of Object.values(item as Record<string, Operation>)) {
      if (typeof operation !== 'object' || !operation || !('responses' in operation)) continue;
      if (operation[PUBLIC_MARK]) {
        operation.security = [];
        delete operation[PUBLIC_MARK];
      }
      if (operation.responses['401']) respond(operation, '401', 'Authorization has been denied for this request.', ref('Unauthorized'));
    }
  }
  document.servers = [{ url: '/', description: 'This service (the document is served by the instance it describes).' }];
}
