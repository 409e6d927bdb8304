import { Text } from './fields.js';

/** What every record's create and update body may carry besides its own fields (docs/api.md §1.1). */
export abstract class RecordDto {
  /** External system identifier. */
  @Text()
  SystemId?: string | null;
}
