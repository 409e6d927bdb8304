import { HttpStatus, SetMetadata, UnauthorizedException, type CanActivate, type Type } from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { isObservable, lastValueFrom } from 'rxjs';
import { actorOf, PERMISSION, type Permission } from '../platform/access.js';
import { RecordCommands } from '../records/commands/record-commands.js';
import { Database } from '../persistence/database.js';
import { failureConfirmation } from '../records/envelopes.js';
import { WireResponseException } from '../records/errors.js';
import { sendError } from './http-exception.filter.js';
import { Idempotency } from './idempotency/idempotency.js';
import { recordBody } from './json-body.js';
import { inListTurn } from '../platform/list-lane.js';
import type { Principal } from '../platform/principal.js';
import { RecordBodyPipe, RecordUpdatePipe } from './record-body.pipe.js';
import { ALL_OPERATIONS, type RecordDefinition, type RecordOperation, type WireRecord } from '../records/record-definition.js';
import { parseRecordId } from './record-id.pipe.js';
import { routeContext } from './route-context.js';
import type { RecordService } from '../records/record.service.js';
import { RecordTypes } from '../records/record-types.js';
import type { RecordDto } from '../records/validation/record.dto.js';
import { ifNoneMatchMatches, recordEtag } from '../records/versions.js';
import { runWrite } from './write.interceptor.js';
import type { WriteScope } from '../persistence/write-scope.js';

// The one record router (docs/architecture.md §1): every operation of every record type is declared
// once below as data (method, path, permission, parse, run) and served natively by Fastify through
// `handle()`: the global guards, the parsing of the path id and body, the write scope, the service,
// ETag and 304, and the one error writer. No Nest controller, pipe or interceptor runs on these routes.

/** The operations a record type may offer (docs/api.md §1.2; commands: docs/billing.md). */
export type RouteOperation =
  'list' | 'batch' | 'get' | 'history' | 'create' | 'update' | 'updateById' | 'delete' | 'commands' | 'runcommand' | 'notAllowed';

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

/** A record type as the router serves it: its definition and the service of its module. */
export interface RecordType {
  definition: RecordDefinition<any>;
  service: RecordService;
}

/** What an operation's `run` is given besides its parsed input. */
export interface RouteTarget {
  service: RecordService;
  commands: RecordCommands;
  definition: RecordDefinition<any>;
}

/** How an operation is described in the OpenAPI document (completed by openapi-document.ts from the definition). */
export interface RouteDocument {
  /** The method name the operation id ends with (`ProductRecordController_create`). */
  key: string;
  summary: string;
  /** Query parameters declared by name (their schemas are filled in by openapi-document.ts). */
  query?: readonly string[];
  body?: new () => RecordDto;
  /** The description of the 200 answer, when it is stated here rather than by openapi-document.ts. */
  ok?: string;
}

/** One record route: the data `handle()` serves and openapi-document.ts documents. */
export interface RecordRoute<Input = any> {
  operation: RouteOperation;
  method: Method;
  /** The Fastify path (`/api/billing/products/:id`). */
  path: string;
  /** The role it needs; null: any authenticated user (the operation decides the rest). */
  permission: Permission | null;
  /** The request's input from its raw parts (path id, query, body); throws the 404/400/415 answers. */
  parse(request: FastifyRequest): Input | Promise<Input>;
  /** `write`: a write's scope (runWrite), passed on to the service; undefined for a read. */
  run(target: RouteTarget, input: Input, actor: Principal | undefined, write: WriteScope | undefined, deadline: number): Promise<unknown>;
  /** GET by id: the answer carries the record's ETag, and a matching If-None-Match is 304. */
  etag?: boolean;
  /** Absent: the route is left out of the OpenAPI document (the 405 answers). */
  document?: RouteDocument;
  definition: RecordDefinition<any>;
}

/** 405 for an operation a read-only type does not offer. */
const notAllowed = (method: string) =>
  new WireResponseException(
    failureConfirmation(HttpStatus.METHOD_NOT_ALLOWED, `The requested resource does not support http method '${method}'.`),
    HttpStatus.METHOD_NOT_ALLOWED,
    { Allow: 'GET' },
  );

const pathId = (request: FastifyRequest): number => parseRecordId((request.params as { id?: string }).id);
const queryOf = (request: FastifyRequest) => request.query as Record<string, unknown>;

/** The routes of a record type: the operations its definition offers, each declared once. */
export function recordRoutes(definition: RecordDefinition<any>): RecordRoute[] {
  const name = definition.name;
  const base = `/api/${definition.path}`;
  const offered = new Set<RecordOperation>(definition.operations ?? ALL_OPERATIONS);
  // A type without a body offers no create or update route.
  const has = (op: RecordOperation) => offered.has(op) && (op === 'list' || op === 'get' || op === 'delete' || Boolean(definition.dto));
  const updateDto = definition.updateDto ?? definition.dto;
  const createPipe = definition.dto ? new RecordBodyPipe(definition.dto) : undefined;
  const updatePipe = updateDto ? new RecordUpdatePipe(updateDto, !definition.requiredOnUpdate) : undefined;
  const read = (action: 'List' | 'Read'): Permission => definition.readPermission ?? { entity: name, action };
  const route = <Input>(spec: Omit<RecordRoute<Input>, 'definition'>): RecordRoute<Input> => ({ ...spec, definition });
  const update = (operation: 'update' | 'updateById', path: string, key: string, summary: string) =>
    route({
      operation,
      method: 'PUT',
      path,
      permission: { entity: name, action: 'Edit' },
      // The path's id first (404), then the body (415, 400): RecordUpdatePipe resolves the id it updates.
      parse: (request) => {
        const id = operation === 'updateById' ? String(pathId(request)) : null;
        return updatePipe!.transform({ body: recordBody(updateDto, request), pathId: id });
      },
      run: ({ service }, { id, dto }, actor, write) => service.update(id, dto, actor, write),
      document: { key, summary, body: updateDto },
    });
  const refuse = (method: Method, path: string) =>
    route({
      operation: 'notAllowed',
      method,
      path,
      permission: null,
      parse: () => undefined,
      run: () => Promise.reject(notAllowed(method)),
    });

  const routes: RecordRoute[] = [];
  if (definition.commands) {
    routes.push(
      route({
        operation: 'commands',
        method: 'GET',
        path: `${base}/commands`,
        permission: { entity: name, action: 'List' },
        parse: (request) => queryOf(request).id,
        run: ({ commands, service }, id, actor) => commands.describe(commandTarget(definition, service), id, actor),
        document: {
          key: 'listCommands',
          summary: `The commands of ${name} records (with id: those the record's state allows now)`,
          query: ['id'],
          ok: 'The commands.',
        },
      }),
    );
    routes.push(
      route({
        operation: 'runcommand',
        method: 'POST',
        path: `${base}/runcommand`,
        permission: null,
        parse: (request) => request.body,
        run: ({ commands, service }, body, actor, write) => commands.run(commandTarget(definition, service), body, actor, write),
        document: {
          key: 'runCommand',
          summary: `Run a command on ${name} records: {Key, Ids, Parameters} (the command's own permission)`,
          ok: 'Run, or refused (WasSuccessful false, Status 400): always HTTP 200.',
        },
      }),
    );
  }
  if (definition.methodNotAllowed) {
    if (!has('create')) routes.push(refuse('POST', base));
    if (!has('update')) routes.push(refuse('PUT', base), refuse('PUT', `${base}/:id`));
    if (!has('delete')) routes.push(refuse('DELETE', `${base}/:id`));
  }
  if (has('list')) {
    routes.push(
      route({
        operation: 'list',
        method: 'GET',
        path: base,
        permission: read('List'),
        parse: queryOf,
        run: ({ service }, query, actor, _write, deadline) => service.list(query, actor, deadline),
        document: { key: 'list', summary: `List ${name} records (paged, filtered)` },
      }),
    );
    // The list route answers `?id=[1,2,3]` too (docs/api.md §1.2), as the platform's clients send it; this
    // route gives that batch get an operation of its own, so each has one answer type in the document.
    routes.push(
      route({
        operation: 'batch',
        method: 'GET',
        path: `${base}/batch`,
        permission: read('List'),
        parse: queryOf,
        run: ({ service }, query, actor, _write, deadline) => service.batchGet(query, actor, deadline),
        document: { key: 'batchGet', summary: `Several ${name} records by id ([1,2,3]), in Id order` },
      }),
    );
  }
  if (has('get')) {
    routes.push(
      route({
        operation: 'get',
        method: 'GET',
        path: `${base}/:id`,
        permission: read('Read'),
        etag: true,
        parse: pathId,
        run: ({ service }, id, actor, _write, deadline) => service.get(id, actor, undefined, deadline),
        document: { key: 'get', summary: `Get one ${name}` },
      }),
    );
    routes.push(
      route({
        operation: 'history',
        method: 'GET',
        path: `${base}/:id/history`,
        permission: read('Read'),
        parse: (request) => ({ id: pathId(request), query: queryOf(request) }),
        run: ({ service }, { id, query }, actor, _write, deadline) => service.history(id, query, actor, deadline),
        document: { key: 'history', summary: `The change history of one ${name}, newest first (deleted records included)` },
      }),
    );
  }
  if (has('create')) {
    routes.push(
      route({
        operation: 'create',
        method: 'POST',
        path: base,
        permission: { entity: name, action: 'Create' },
        parse: (request) => createPipe!.transform(recordBody(definition.dto, request)),
        run: ({ service }, dto, actor, write) => service.create(dto, actor, write),
        document: { key: 'create', summary: `Create a ${name}`, body: definition.dto, ok: `${name} was successfully created.` },
      }),
    );
  }
  if (has('update')) {
    routes.push(update('update', base, 'update', `Update a ${name} (Id in the body)`));
    routes.push(update('updateById', `${base}/:id`, 'updateById', `Update a ${name} by id`));
  }
  if (has('delete')) {
    routes.push(
      route({
        operation: 'delete',
        method: 'DELETE',
        path: `${base}/:id`,
        permission: { entity: name, action: 'Delete' },
        parse: pathId,
        run: ({ service }, id, actor, write) => service.delete(id, actor, write),
        document: { key: 'remove', summary: `Delete a ${name}` },
      }),
    );
  }
  return routes;
}

/** What a command reads its records through (record-commands.ts). */
const commandTarget = (definition: RecordDefinition<any>, service: RecordService) => ({
  definition,
  get: (id: number, actor: Principal | undefined, tx?: Parameters<RecordService['get']>[2]) => service.get(id, actor, tx),
});

/** The record types of the application, each with its RecordService: the registry every record module registers into. */
export function recordTypesOf(app: Pick<NestFastifyApplication, 'get'>): RecordType[] {
  const types = app.get(RecordTypes, { strict: false });
  return types.definitions().map((definition) => ({ definition, service: types.records(definition) }));
}

/** What `handle()` needs from the application, resolved on the first request. */
export interface RouterServices {
  /** The global guards, in the order app.module.ts registers them as APP_GUARD. */
  guards(): readonly CanActivate[];
  idempotency(): Idempotency;
  database(): Database;
  target(definition: RecordDefinition<any>): RouteTarget;
}

/** The route's handler as the guards see it: a function carrying the route's access metadata. */
function routeHandler(route: RecordRoute): () => void {
  const handler = { [`${route.definition.name}.${route.operation}`]: () => undefined }[`${route.definition.name}.${route.operation}`];
  if (route.permission) SetMetadata(PERMISSION, route.permission)(handler);
  return handler;
}

/** The Fastify handler of one record route. */
export function handle(route: RecordRoute, services: RouterServices) {
  const handler = routeHandler(route);
  let target: RouteTarget | undefined;
  const write = route.method !== 'GET';
  return async function recordRoute(request: FastifyRequest & { user?: Principal }, reply: FastifyReply): Promise<FastifyReply> {
    try {
      const context = routeContext(handler, request, reply);
      for (const guard of services.guards()) {
        const allowed = guard.canActivate(context);
        // A guard that decided at once (nearly always) costs no turn of the event loop.
        if (allowed === true) continue;
        if (!(isObservable(allowed) ? await lastValueFrom(allowed) : await allowed)) throw new UnauthorizedException();
      }
      const actor = actorOf(request);
      const on = (target ??= services.target(route.definition));
      let result: unknown;
      if (write) {
        // Writes parse their body inside the write scope, as a Nest interceptor wrapped the pipes.
        result = await runWrite(services.idempotency(), services.database(), request, reply, async (scope) =>
          route.run(on, await route.parse(request), actor, scope, request.deadlineAt),
        );
      } else {
        // Reads parse synchronously (path id, query): no extra turn before the service.
        const parsed = route.parse(request);
        const input = parsed instanceof Promise ? await parsed : parsed;
        const read = () => route.run(on, input, actor, undefined, request.deadlineAt);
        // Lists (and batch gets) take turns per user (list-lane.ts); a GET by id never waits behind them.
        result = await (route.operation === 'list' || route.operation === 'batch' ? inListTurn(actor, request, reply, read) : read());
      }
      if (reply.sent) return reply;
      if (route.etag) {
        // The ETag comes from the version the read already selected; a matching If-None-Match is 304.
        const etag = recordEtag(result as WireRecord);
        if (etag !== undefined) {
          void reply.header('etag', etag);
          const ifNoneMatch = request.headers['if-none-match'];
          if (ifNoneMatch !== undefined && ifNoneMatchMatches(ifNoneMatch, etag)) return reply.code(304).send();
        }
      }
      return reply.send(result);
    } catch (error) {
      sendError(error, request, reply);
      return reply;
    }
  };
}

/**
 * Registers every record route of the application on Fastify (before Nest registers its own
 * controllers' routes). `guards` are the APP_GUARD classes of app.module.ts, resolved from DI.
 * Returns the routes, for the OpenAPI document and docs/routes.md.
 */
export function installRecordRouter(app: NestFastifyApplication, guards: readonly Type<CanActivate>[]): RecordRoute[] {
  const types = recordTypesOf(app);
  const services = new Map(types.map((type) => [type.definition, type.service]));
  let resolvedGuards: CanActivate[] | undefined;
  let idempotency: Idempotency | undefined;
  let database: Database | undefined;
  let commands: RecordCommands | undefined;
  const routerServices: RouterServices = {
    guards: () => (resolvedGuards ??= guards.map((guard) => app.get<CanActivate>(guard, { strict: false }))),
    idempotency: () => (idempotency ??= app.get<Idempotency>(Idempotency, { strict: false })),
    database: () => (database ??= app.get<Database>(Database, { strict: false })),
    target: (definition) => ({
      definition,
      service: services.get(definition)!,
      commands: (commands ??= app.get<RecordCommands>(RecordCommands, { strict: false })),
    }),
  };
  const fastify = app.getHttpAdapter().getInstance();
  const routes = types.flatMap((type) => recordRoutes(type.definition));
  for (const route of routes) fastify.route({ method: route.method, url: route.path, handler: handle(route, routerServices) });
  return routes;
}
