import type { Permission } from '../../platform/access.js';
import { refusal } from '../errors.js';
import type { WireRecord } from '../record-definition.js';
import type { RecordService } from '../record.service.js';
import type { RecordCommand } from './record-commands.js';
import type { Tx } from '../../persistence/tx.js';

/** What a command that does something to each record once needs (a pass used, a delivery collected). */
export interface ClaimCommandOptions {
  key: string;
  name: string;
  permission: Permission;
  /** Whether it was done to the record already. */
  done: (record: WireRecord) => boolean;
  /** The refusal's Message for a record it was done to already. */
  doneAlready: (id: unknown) => string;
  /** Does it with one conditional UPDATE while it is not done, at `at`, by `by`: whether this call did. */
  claim: (id: number, at: Date, by: string | null, tx: Tx) => Promise<boolean>;
  /** The type's records, whose change log records each change. */
  records: RecordService;
}

/**
 * A command (docs/billing.md, "How a record type declares a command") that does something to every
 * record of its ids in one transaction, listed and allowed only for records it was not done to. Each
 * record is claimed by one conditional UPDATE, so of parallel runs on one record (on any instance)
 * exactly one does it; a claim lost to another run refuses the whole command and rolls back the others.
 */
export function claimCommand(options: ClaimCommandOptions): RecordCommand {
  const { key, name, permission, done, doneAlready, claim, records } = options;
  return {
    key,
    name,
    permission,
    refuses: (record) => (done(record) ? doneAlready(record.Id) : null),
    run: async ({ records: targets, tx, actor }) => {
      const now = new Date();
      for (const record of targets) {
        if (!(await claim(Number(record.Id), now, actor?.email ?? null, tx!))) throw refusal(doneAlready(record.Id));
        await records.recordChange(tx!, actor, 'Update', Number(record.Id), record);
      }
      return null;
    },
  };
}
