/**
 * Waiting work served in turn across its owners (docs/performance.md, "Printing: bounded and fair"):
 * each owner (a business, for prints) has its own first-in first-out line, and `take` serves the owners
 * round robin, one item each. The owner served last goes behind every owner waiting when the next item
 * is taken, so one that starts waiting while another's item is served comes next: an owner with a
 * thousand items waiting delays another owner's first item by the one being served at most.
 */
export class RoundRobinQueue<T> {
  /** The owners with something waiting, in the order they are served; each line is non-empty. */
  private readonly lines = new Map<string, T[]>();
  private count = 0;
  private servedLast: string | undefined;

  get size(): number {
    return this.count;
  }

  /** Adds an item at the end of its owner's line; an owner new to the queue joins the turn at its end. */
  add(owner: string, item: T): void {
    const line = this.lines.get(owner);
    if (line) line.push(item);
    else this.lines.set(owner, [item]);
    this.count++;
  }

  /** The next item in turn, or undefined when nothing waits. */
  take(): T | undefined {
    const last = this.servedLast === undefined ? undefined : this.lines.get(this.servedLast);
    if (last) {
      // Deleted and set again: a Map keeps insertion order, so that owner now comes after every other.
      this.lines.delete(this.servedLast!);
      this.lines.set(this.servedLast!, last);
    }
    const next = this.lines.entries().next();
    if (next.done) return undefined;
    const [owner, line] = next.value;
    const item = line.shift()!;
    this.count--;
    if (!line.length) this.lines.delete(owner);
    this.servedLast = owner;
    return item;
  }
}
