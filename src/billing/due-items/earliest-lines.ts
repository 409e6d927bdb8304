import type { DueItem, DueLine } from './due-items.js';

// The lines one run bills of a customer's due items (docs/billing.md "Bounds"): per currency, the
// `cap` earliest by PeriodFrom, then by the items' order (sources in their order, then each source's
// own), read from the items' lazy lines one at a time, so no more is ever made than is billed (plus the
// one line per item that shows what comes next).

/** The lines of one item that go on the invoice: its first ones, in order. */
export interface TakenItem {
  item: DueItem;
  lines: DueLine[];
}

/** One currency's invoice: its items in their order with the lines taken of each; `capped` when more was due. */
export interface TakenInvoice {
  currencyId: number;
  items: TakenItem[];
  capped: boolean;
}

/** An item's next unread line, its place in the order and the rest of its lines. */
interface Head {
  index: number;
  line: DueLine;
  rest: Iterator<DueLine>;
}

const before = (a: Head, b: Head): boolean => {
  const byDate = a.line.periodFrom.compareTo(b.line.periodFrom);
  return byDate !== 0 ? byDate < 0 : a.index < b.index;
};

/** A binary min-heap of heads: the earliest line of any item at its top. */
class Heads {
  private readonly heap: Head[] = [];

  get size(): number {
    return this.heap.length;
  }

  push(head: Head): void {
    const { heap } = this;
    heap.push(head);
    for (let i = heap.length - 1; i > 0;) {
      const parent = (i - 1) >> 1;
      if (!before(heap[i], heap[parent])) break;
      [heap[i], heap[parent]] = [heap[parent], heap[i]];
      i = parent;
    }
  }

  pop(): Head {
    const { heap } = this;
    const top = heap[0];
    const last = heap.pop()!;
    if (heap.length) {
      heap[0] = last;
      for (let i = 0; ;) {
        const left = 2 * i + 1;
        const right = left + 1;
        let least = i;
        if (left < heap.length && before(heap[left], heap[least])) least = left;
        if (right < heap.length && before(heap[right], heap[least])) least = right;
        if (least === i) break;
        [heap[i], heap[least]] = [heap[least], heap[i]];
        i = least;
      }
    }
    return top;
  }
}

/**
 * The invoices `items` make, one per currency (in the order their first item comes), each with at most
 * `cap` lines: the earliest. An item's lines all go on the invoice of its first line's currency. Items
 * with no line due are left out.
 */
export function earliestLines(items: readonly DueItem[], cap: number): TakenInvoice[] {
  const byCurrency = new Map<number, { heads: Heads; taken: Map<number, DueLine[]> }>();
  items.forEach((item, index) => {
    const rest = item.lines[Symbol.iterator]();
    const first = rest.next();
    if (first.done) return;
    const currencyId = first.value.currencyId;
    let group = byCurrency.get(currencyId);
    if (!group) byCurrency.set(currencyId, (group = { heads: new Heads(), taken: new Map() }));
    group.heads.push({ index, line: first.value, rest });
  });
  return [...byCurrency].map(([currencyId, { heads, taken }]) => {
    for (let count = 0; count < cap && heads.size; count++) {
      const head = heads.pop();
      let lines = taken.get(head.index);
      if (!lines) taken.set(head.index, (lines = []));
      lines.push(head.line);
      const next = head.rest.next();
      if (!next.done) heads.push({ ...head, line: next.value });
    }
    const chosen = [...taken].sort(([a], [b]) => a - b).map(([index, lines]) => ({ item: items[index], lines }));
    return { currencyId, items: chosen, capped: heads.size > 0 };
  });
}
