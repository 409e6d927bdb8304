import type { Database } from '../persistence/database.js';
import type { JoinTableList } from './record-definition.js';
import { RecordLinksRepository } from './record-links.repository.js';
import type { Tx } from '../persistence/tx.js';

/**
 * Makes a record's join-table id list hold exactly `ids`, inside the write's transaction, touching
 * only the rows that change: the removed pairs are deleted by their primary key and the new ones
 * inserted. (Deleting the whole list and inserting it again locked the index range of the record's
 * id, and parallel writers of the table deadlocked on those ranges, a new record's empty one too.)
 * An update has locked the record's own row before this runs, so writers of one list take turns and
 * each reads the list its predecessor committed.
 */
export async function replaceIdList(
  db: Database,
  tx: Tx,
  list: JoinTableList,
  id: number,
  ids: readonly number[],
  created: boolean,
): Promise<void> {
  const links = new RecordLinksRepository(db);
  const wanted = new Set(ids);
  const stored = created ? new Set<number>() : new Set(await links.listedIds(list, id, tx));
  const removed = [...stored].filter((listed) => !wanted.has(listed));
  const added = [...wanted].filter((listed) => !stored.has(listed));
  if (removed.length) await links.unlist(list, id, removed, tx);
  if (added.length) await links.list(list, id, added, tx);
}
