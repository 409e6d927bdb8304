/**
 * The answer deadlines of the requests in flight (docs/architecture.md §1, the Fastify row): every request gets
 * the same period, so their deadlines come in the order they were set, and one list in that order with
 * one timer (for its first entry) serves them all. A timer per request, set and cleared on each, cost
 * about 2% of a read's CPU (docs/performance.md). An entry leaves the list when its request is answered,
 * so nothing a request holds outlives it.
 */
export class AnswerDeadlines<T> {
  private first: Deadline<T> | null = null;
  private last: Deadline<T> | null = null;
  /** Set for the first entry's due time; when that entry leaves early, it fires early and is set again (or not, if none is left). */
  private timer: NodeJS.Timeout | null = null;

  /** `expired` is called with a request's subject once its period has passed unanswered. */
  constructor(
    private readonly periodMs: number,
    private readonly expired: (subject: T) => void,
  ) {}

  /** Starts a period for `subject`; cancel the returned deadline when it is answered. */
  start(subject: T): Deadline<T> {
    const deadline: Deadline<T> = { subject, due: Date.now() + this.periodMs, previous: this.last, next: null, queued: true };
    if (this.last) this.last.next = deadline;
    else this.first = deadline;
    this.last = deadline;
    if (!this.timer) this.arm(deadline.due);
    return deadline;
  }

  /** The request was answered (or its deadline handled): it leaves the list. */
  cancel(deadline: Deadline<T> | null | undefined): void {
    if (!deadline?.queued) return;
    deadline.queued = false;
    if (deadline.previous) deadline.previous.next = deadline.next;
    else this.first = deadline.next;
    if (deadline.next) deadline.next.previous = deadline.previous;
    else this.last = deadline.previous;
    deadline.previous = deadline.next = null;
    // The timer is left set even when the list empties: it finds nothing due and stops, where clearing
    // and setting it again as requests come and go cost more than the deadlines themselves.
  }

  private arm(at: number): void {
    this.timer = setTimeout(() => this.fire(), Math.max(0, at - Date.now()));
    // The deadlines never keep the process alive by themselves.
    this.timer.unref();
  }

  private fire(): void {
    this.timer = null;
    const now = Date.now();
    while (this.first && this.first.due <= now) {
      const due = this.first;
      this.cancel(due);
      this.expired(due.subject);
    }
    if (this.first && !this.timer) this.arm(this.first.due);
  }
}

export interface Deadline<T> {
  readonly subject: T;
  readonly due: number;
  previous: Deadline<T> | null;
  next: Deadline<T> | null;
  queued: boolean;
}
