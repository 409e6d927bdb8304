import { Injectable, type PipeTransform } from '@nestjs/common';
import { RecordNotFoundException } from '../records/errors.js';
import { MAX_ID } from '../records/validation/fields.js';

/**
 * A record id from a path, parsed from its raw text: only a canonical decimal id from 1 to 2^31-1.
 * Anything else (`abc`, `1.0`, `0x3`, `1e3`, `-1`, `0`, `01`, `2147483648`) names no record: 404, on
 * every operation alike (docs/api.md §1.2). The one parser of path ids: every route's id goes through it
 * (the record router, record-router.ts, and `RecordIdPipe` on hand-written routes; no global pipe runs before it).
 */
export function parseRecordId(raw: unknown): number {
  if (typeof raw !== 'string' || !/^[1-9]\d{0,9}$/.test(raw)) throw new RecordNotFoundException();
  const id = Number(raw);
  if (id > MAX_ID) throw new RecordNotFoundException();
  return id;
}

/** `@Param('id', RecordIdPipe)`: the path id by `parseRecordId`. */
@Injectable()
export class RecordIdPipe implements PipeTransform<unknown, number> {
  transform(value: unknown): number {
    return parseRecordId(value);
  }
}
