import { Text } from '../../../records/validation/fields.js';

/** Both fields are optional: absent, null or blank, they default to the customer's own. */
export class JoinWaitingListDto {
  /** The name to put on the waiting list. */
  @Text() FullName?: string | null;
  /** The address to tell when a place is free. */
  @Text() Email?: string | null;
}
