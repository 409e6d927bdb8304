import { Body, Controller, Delete, Get, HttpCode, HttpStatus, Inject, Optional, Param, Post, Put, Query, applyDecorators, type Type } from '@nestjs/common';
import { ApiBody, ApiExcludeEndpoint, ApiOkResponse, ApiOperation, ApiQuery, ApiTags } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import type { EntityManager } from 'typeorm';
import { Actor, Authenticated, RequirePermission } from './access.js';
import { RecordCommands } from './commands/record-commands.js';
import { failureConfirmation } from './envelopes.js';
import { ApiAnswer, objectSchema, ref } from './openapi.js';
import { WireResponseException } from './errors.js';
import { JsonBody, recordBody, UpdateBody } from './json-body.js';
import type { Principal } from './principal.js';
import { ALL_OPERATIONS, type RecordDefinition, type RecordOperation } from './record-definition.js';
import { RecordBodyPipe, RecordUpdatePipe, type RecordUpdate } from './record-body.pipe.js';
import { RecordIdPipe } from './record-id.pipe.js';
import type { RecordDto } from './validation/record.dto.js';
import { RecordService } from './record.service.js';

/** `GET …/commands` (docs/billing.md). */
const COMMAND_LIST = {
  type: 'array',
  items: objectSchema({
    Key: { type: 'string' }, Name: { type: 'string' }, AppliesOnlyToOneEntity: { type: 'boolean' }, AppliesOnlyToMultipleEntities: { type: 'boolean' },
    AppliesOnlyToTwoEntities: { type: 'boolean' }, DisplayInDropdown: { type: 'boolean' }, NeedsEntitiesToRun: { type: 'boolean' }, Order: { type: 'integer' },
    RequiresParameters: { type: 'array', items: objectSchema({ Name: { type: 'string' }, Type: { type: 'string' } }) },
  }),
};

/** 405 for an operation a read-only type does not offer. */
const notAllowed = (method: string) =>
  new WireResponseException(failureConfirmation(HttpStatus.METHOD_NOT_ALLOWED, `The requested resource does not support http method '${method}'.`), HttpStatus.METHOD_NOT_ALLOWED, { Allow: 'GET' });

/** Applies the decorators only when the record type offers the operation; otherwise no route exists. */
function when(enabled: boolean, ...decorators: Array<MethodDecorator>): MethodDecorator {
  return enabled ? applyDecorators(...decorators) : () => undefined;
}

/** What the fast record routes (fast-records.ts) call on a record controller. */
export interface RecordControllerShape {
  list(query: Record<string, unknown>, actor?: Principal): Promise<unknown>;
  get(id: number, actor?: Principal): Promise<unknown>;
  create(dto: RecordDto, actor?: Principal): Promise<unknown>;
}

/** A generated record controller, and how its create route reads its body (as its parameter decorator and pipe do). */
export interface RecordRoutes {
  controller: Type<RecordControllerShape>;
  /** The create body as the validated DTO; undefined when the type offers no create. */
  createBody?: (request: FastifyRequest) => Promise<RecordDto>;
}

/** The generated record controllers by their route (`/api/billing/products`), for the fast record routes. */
export const recordControllers = new Map<string, RecordRoutes>();

/** Builds the controller of a record type: the operations of docs/api.md §1.2 at /api/{path}. */
export function createRecordController(definition: RecordDefinition<any>): Type<unknown> {
  const offered = new Set<RecordOperation>(definition.operations ?? ALL_OPERATIONS);
  const name = definition.name;
  const has = (op: RecordOperation) => offered.has(op) && (op === 'list' || op === 'get' || op === 'delete' || Boolean(definition.dto));
  const body = definition.dto ? [ApiBody({ type: definition.dto })] : [];
  const updateDto = definition.updateDto ?? definition.dto;
  const updateBody = updateDto ? [ApiBody({ type: updateDto })] : [];
  // Bodies become DTOs at the boundary; a type without a body offers no create or update route.
  const readPermission = (action: 'List' | 'Read') =>
    (definition.readPermission ? RequirePermission(definition.readPermission.entity, definition.readPermission.action) : RequirePermission(name, action));
  const createPipe = definition.dto ? new RecordBodyPipe(definition.dto) : undefined;
  const updatePipe = updateDto ? [new RecordUpdatePipe(updateDto, !definition.requiredOnUpdate)] : [];

  @ApiTags(name)
  @Controller(`api/${definition.path}`)
  class RecordController {
    constructor(@Inject(RecordService) readonly records: RecordService, @Optional() @Inject(RecordCommands) readonly commands?: RecordCommands) {}

    // ---- the commands protocol (docs/billing.md), for types that declare `commands` ----

    @when(Boolean(definition.commands), Get('commands'), RequirePermission(name, 'List'),
      ApiOperation({ summary: `The commands of ${name} records (with id: those the record's state allows now)` }), ApiQuery({ name: 'id', required: false }),
      ApiAnswer(200, 'The commands.', COMMAND_LIST))
    listCommands(@Query('id') id: unknown, @Actor() actor?: Principal) {
      return this.commands!.describe(this.commandTarget, id, actor);
    }

    @when(Boolean(definition.commands), Post('runcommand'), HttpCode(200), Authenticated(),
      ApiOperation({ summary: `Run a command on ${name} records: {Key, Ids, Parameters} (the command's own permission)` }),
      ApiAnswer(200, 'Run, or refused (WasSuccessful false, Status 400): always HTTP 200.', ref('ActionConfirmation')))
    runCommand(@Body() body: unknown, @Actor() actor?: Principal) {
      return this.commands!.run(this.commandTarget, body, actor);
    }

    get commandTarget() {
      return { definition, get: (id: number, actor: Principal | undefined, manager?: EntityManager) => this.records.get(id, actor, manager) };
    }

    // ---- operations a type without them refuses with 405 (`methodNotAllowed`) ----

    @when(Boolean(definition.methodNotAllowed) && !has('create'), Post(), ApiExcludeEndpoint())
    createNotAllowed() {
      throw notAllowed('POST');
    }

    @when(Boolean(definition.methodNotAllowed) && !has('update'), Put(), ApiExcludeEndpoint())
    updateNotAllowed() {
      throw notAllowed('PUT');
    }

    @when(Boolean(definition.methodNotAllowed) && !has('update'), Put(':id'), ApiExcludeEndpoint())
    updateByIdNotAllowed() {
      throw notAllowed('PUT');
    }

    @when(Boolean(definition.methodNotAllowed) && !has('delete'), Delete(':id'), ApiExcludeEndpoint())
    deleteNotAllowed() {
      throw notAllowed('DELETE');
    }

    @when(has('list'), Get(), readPermission('List'),
      ApiOperation({ summary: `List ${name} records (paged, filtered), or several by id=[1,2,3]` }),
      ApiQuery({ name: 'page', required: false }), ApiQuery({ name: 'size', required: false }),
      ApiQuery({ name: 'orderBy', required: false }), ApiQuery({ name: 'dir', required: false }),
      ApiQuery({ name: 'id', required: false, description: 'Batch get: [1,2,3]' }))
    list(@Query() query: Record<string, unknown>, @Actor() actor?: Principal) {
      return this.records.list(query, actor);
    }

    @when(has('get'), Get(':id'), readPermission('Read'), ApiOperation({ summary: `Get one ${name}` }))
    get(@Param('id', RecordIdPipe) id: number, @Actor() actor?: Principal) {
      return this.records.get(id, actor);
    }

    @when(has('get'), Get(':id/history'), readPermission('Read'),
      ApiOperation({ summary: `The change history of one ${name}, newest first (deleted records included)` }),
      ApiQuery({ name: 'page', required: false }), ApiQuery({ name: 'size', required: false }))
    history(@Param('id', RecordIdPipe) id: number, @Query() query: Record<string, unknown>, @Actor() actor?: Principal) {
      return this.records.history(id, query, actor);
    }

    @when(has('create'), Post(), HttpCode(200), RequirePermission(name, 'Create'), ApiOperation({ summary: `Create a ${name}` }), ...body,
      ApiOkResponse({ description: `${name} was successfully created.` }))
    create(@JsonBody(definition.dto, ...(createPipe ? [createPipe] : [])) dto: RecordDto, @Actor() actor?: Principal) {
      return this.records.create(dto, actor);
    }

    @when(has('update'), Put(), RequirePermission(name, 'Edit'), ApiOperation({ summary: `Update a ${name} (Id in the body)` }), ...updateBody)
    update(@UpdateBody(updateDto, ...updatePipe) request: RecordUpdate, @Actor() actor?: Principal) {
      return this.records.update(request.id, request.dto, actor);
    }

    @when(has('update'), Put(':id'), RequirePermission(name, 'Edit'), ApiOperation({ summary: `Update a ${name} by id` }), ...updateBody)
    updateById(@Param('id', RecordIdPipe) _id: number, @UpdateBody(updateDto, ...updatePipe) request: RecordUpdate, @Actor() actor?: Principal) {
      return this.records.update(request.id, request.dto, actor);
    }

    @when(has('delete'), Delete(':id'), RequirePermission(name, 'Delete'), ApiOperation({ summary: `Delete a ${name}` }))
    remove(@Param('id', RecordIdPipe) id: number, @Actor() actor?: Principal) {
      return this.records.delete(id, actor);
    }
  }
  Object.defineProperty(RecordController, 'name', { value: `${name}RecordController` });
  recordControllers.set(`/api/${definition.path}`, {
    controller: RecordController,
    createBody: has('create') && createPipe ? (request) => createPipe.transform(recordBody(definition.dto, request)) : undefined,
  });
  return RecordController;
}
