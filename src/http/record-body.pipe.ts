import { Injectable, type PipeTransform } from '@nestjs/common';
import { RecordValidationException } from '../records/errors.js';
import { RecordIdPipe } from './record-id.pipe.js';
import { validateBody } from '../records/validation/validation.js';
import type { RecordDto } from '../records/validation/record.dto.js';
import { MAX_ID } from '../records/validation/fields.js';

/** A record body as the update routes receive it: the body, and the path's id on `PUT /{path}/{id}`. */
export interface UpdateRequestBody {
  body: unknown;
  /** The path's id as written, or null on `PUT /{path}` (the Id is the body's). */
  pathId: string | null;
}

/** An update's validated body and the id of the record it updates. */
export interface RecordUpdate<D extends RecordDto = RecordDto> {
  id: number;
  dto: D;
}

/**
 * The body of a create as its DTO, or the 400 envelope naming each offending field (docs/api.md §1.1).
 * Applied per record type to the record controller's body parameter (the global ValidationPipe does not
 * see custom parameter decorators), so services receive validated DTOs.
 */
@Injectable()
export class RecordBodyPipe<D extends RecordDto = RecordDto> implements PipeTransform<unknown, Promise<D>> {
  constructor(private readonly dto: new () => D) {}

  transform(body: unknown): Promise<D> {
    return validateBody(this.dto, body);
  }
}

const pathIds = new RecordIdPipe();

/**
 * The body of an update as its DTO and the id it updates (docs/api.md §1.2): the path's id, which a
 * body Id must then repeat, or else the body's Id, which is required. The Id is checked before the
 * fields, so a request without one is told so first.
 */
@Injectable()
export class RecordUpdatePipe<D extends RecordDto = RecordDto> implements PipeTransform<UpdateRequestBody, Promise<RecordUpdate<D>>> {
  /** `partial`: absent required fields keep their stored values (every type but those of `requiredOnUpdate`). */
  constructor(
    private readonly dto: new () => D,
    private readonly partial = false,
  ) {}

  async transform({ body, pathId }: UpdateRequestBody): Promise<RecordUpdate<D>> {
    const id = updatedId(pathId === null ? null : pathIds.transform(pathId), body);
    return { id, dto: await validateBody(this.dto, body, this.partial) };
  }
}

function updatedId(pathId: number | null, body: unknown): number {
  const bodyId = (body as { Id?: unknown } | null)?.Id;
  if (pathId !== null) {
    if (bodyId !== undefined && bodyId !== null && bodyId !== pathId) {
      throw RecordValidationException.field('Id', 'Id in the body does not match the id in the path.', bodyId);
    }
    return pathId;
  }
  if (bodyId === undefined || bodyId === null) throw RecordValidationException.field('Id', 'Id is required.', null);
  if (typeof bodyId !== 'number' || !Number.isInteger(bodyId) || bodyId < 1 || bodyId > MAX_ID) {
    throw RecordValidationException.field('Id', 'Id must be a positive integer id.', bodyId);
  }
  return bodyId;
}
