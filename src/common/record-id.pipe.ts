import { Injectable, type PipeTransform } from '@nestjs/common';
import { RecordNotFoundException } from './errors.js';
import { MAX_ID } from './validation/fields.js';

/** A record id from the path: a malformed one (`abc`, 0, negative, past 2^31-1) names no record: 404. */
@Injectable()
export class RecordIdPipe implements PipeTransform<string, number> {
  transform(value: string): number {
    if (!/^\d{1,10}$/.test(value)) throw new RecordNotFoundException();
    const id = Number(value);
    if (id < 1 || id > MAX_ID) throw new RecordNotFoundException();
    return id;
  }
}
