import { ALL_OPERATIONS, type RecordDefinition, type RecordOperation } from '../../src/records/record-definition.js';
import { RecordWalker } from './record-walker.js';

// Valid records of any record type, made from its DTO's rules alone (the records its references name
// are made first), so that suites walking every type need no per-type fixture. The field rules and
// valid values are record-walker.ts's.

export { fieldsOf, pathOf, validValue, type FieldRules } from './record-walker.js';

export const offers = (definition: RecordDefinition<any>, operation: RecordOperation) =>
  (definition.operations ?? ALL_OPERATIONS).includes(operation);

/** A RecordWalker that remembers every record it made, in the order made (a record's references before it). */
export class RecordMaker extends RecordWalker {
  readonly made: Array<{ definition: RecordDefinition<any>; id: number; body: Record<string, unknown> }> = [];

  override async create(
    definition: RecordDefinition<any>,
    making = new Set<RecordDefinition<any>>(),
    extra: Record<string, unknown> = {},
    seen?: (answer: { status: number; body: unknown }) => void,
  ): Promise<{ id: number; body: Record<string, unknown> }> {
    const made = await super.create(definition, making, extra, seen);
    this.made.push({ definition, id: made.id, body: { ...made.body } });
    return made;
  }

  /** A record of the type made from its minimal body, each answer shown to `seen`. */
  createValid(
    definition: RecordDefinition<any>,
    making = new Set<RecordDefinition<any>>(),
    seen?: (answer: { status: number; body: unknown }) => void,
  ): Promise<{ id: number; body: Record<string, unknown> }> {
    return this.create(definition, making, {}, seen);
  }
}
