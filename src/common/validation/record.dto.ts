import { Text } from './fields.js';

/** What every record's create and update body may carry besides its own fields (contract §1.1). */
export abstract class RecordDto {
  /** External system identifier. */
  @Text()
  SystemId?: string | null;
}
