import { Injectable, Optional, type OnApplicationShutdown } from '@nestjs/common';
import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { RoundRobinQueue } from '../../platform/round-robin-queue.js';
import { Metrics } from '../../observability/metrics.js';
import type { PdfDocumentInput } from './invoice-pdf-content.js';
import type { PdfStep, PdfStepResult } from './invoice-pdf.process.js';

/** The PDF process's heap bound, apart from the service's (fonts and one document at a time). */
const PDF_PROCESS_HEAP_MB = 96;
/**
 * The PDF process ends after this long with nothing to make: it holds ~100–170 MB resident once it has
 * printed, more than half the service's own memory budget (docs/performance.md, "Figures of 2026-11-29"),
 * and starting it again costs the next print only the process's start and its fonts' parse.
 */
const PDF_PROCESS_IDLE_MS = 30_000;

/** Whose print a job is, for the turns of the queue, and whether its asker still waits for it. */
export interface PrintFor {
  /** The owner served in turn with the others (docs/performance.md, "Printing: bounded and fair"): a business. */
  owner: string;
  /** True once nobody waits for the result (its request was answered 503): its steps not begun are skipped. */
  abandoned?: () => boolean;
}

/** A print waiting for its steps: its documents' PDFs as they come back, then the whole. */
interface PrintJob {
  documents: PdfDocumentInput[];
  zipNames: string[] | undefined;
  pdfs: Buffer[];
  abandoned: () => boolean;
  done: boolean;
  resolve: (files: Buffer[]) => void;
  reject: (error: Error) => void;
  /** performance.now() when it was queued, for the print's duration. */
  queuedAt: number;
}

/** One step of a job: the PDF of its `index`-th document, or (index 'zip') its zip. */
interface Step {
  job: PrintJob;
  index: number | 'zip';
}

const NOBODY_WAITS = new Error('The print was dropped: its request was answered already.');

/**
 * Renders invoice PDFs (and zips several) in a process of its own at the idle scheduling class
 * (docs/settlement.md, "The PDF and its download"): building one never holds up a request, even on a
 * service given one core; the fonts are parsed there once, and the request's thread only waits for the
 * bytes. The process starts on first use, is started again after a failure, and ends with the service.
 *
 * Prints are cut into steps (one document, or the zip) and the process is given one step at a time,
 * taken from a queue that serves the businesses in turn (docs/performance.md, "Printing: bounded and
 * fair"): its heap holds one document, and one business's long print delays another's by one document
 * at most. When the process dies, only the print whose step it was running fails; the rest go on in a
 * new one.
 */
@Injectable()
export class InvoicePdfRenderer implements OnApplicationShutdown {
  private child: ChildProcess | undefined;
  private readonly waiting = new RoundRobinQueue<Step>();
  /** The step the process is on, with the id its answer carries. */
  private running: (Step & { id: number; child: ChildProcess }) | undefined;
  private nextId = 1;
  private stopped = false;
  /** Ends the idle process (PDF_PROCESS_IDLE_MS; a test may shorten it). */
  idleExitMs = PDF_PROCESS_IDLE_MS;
  private idleTimer: NodeJS.Timeout | undefined;

  /** Metrics absent: a renderer made outside the application (unit tests). */
  constructor(@Optional() private readonly metrics?: Metrics) {
    metrics?.watchPrintQueue(() => this.waiting.size);
  }

  /** The PDF of each document, in order. */
  render(documents: PdfDocumentInput[], printFor: PrintFor = { owner: '' }): Promise<Buffer[]> {
    if (!documents.length) return Promise.resolve([]);
    return this.enqueue(documents, undefined, printFor);
  }

  /** One zip of the documents' PDFs, the i-th named `names[i]` (distinct names). */
  async zip(documents: PdfDocumentInput[], names: string[], printFor: PrintFor = { owner: '' }): Promise<Buffer> {
    if (names.length !== documents.length || new Set(names).size !== names.length)
      throw new Error('a zip needs one distinct name per document');
    const [zip] = await this.enqueue(documents, names, printFor);
    return zip;
  }

  onApplicationShutdown(): void {
    this.stopped = true;
    clearTimeout(this.idleTimer);
    const child = this.child;
    this.child = undefined;
    child?.kill();
    for (let step = this.waiting.take(); step; step = this.waiting.take()) this.finish(step.job, new Error('The service is stopping.'));
  }

  private enqueue(documents: PdfDocumentInput[], zipNames: string[] | undefined, printFor: PrintFor): Promise<Buffer[]> {
    return new Promise<Buffer[]>((resolve, reject) => {
      const job: PrintJob = {
        documents,
        zipNames,
        pdfs: [],
        abandoned: printFor.abandoned ?? (() => false),
        done: false,
        resolve,
        reject,
        queuedAt: performance.now(),
      };
      // One owner's steps stay in order in its line, so a job's zip comes after its documents.
      for (let index = 0; index < documents.length; index++) this.waiting.add(printFor.owner, { job, index });
      if (zipNames) this.waiting.add(printFor.owner, { job, index: 'zip' });
      this.next();
    });
  }

  /** Gives the process its next step, unless it is on one. */
  private next(): void {
    while (!this.running && !this.stopped) {
      const step = this.waiting.take();
      if (!step) {
        // While a step runs, the channel keeps the service's event loop alive; idle, it does not.
        this.child?.channel?.unref();
        this.endWhenIdle();
        return;
      }
      clearTimeout(this.idleTimer);
      if (step.job.done) continue;
      if (step.job.abandoned()) {
        this.finish(step.job, NOBODY_WAITS);
        continue;
      }
      const child = this.process();
      const id = this.nextId++;
      this.running = { ...step, id, child };
      child.channel?.ref();
      const message: PdfStep =
        step.index === 'zip'
          ? { id, zip: step.job.zipNames!.map((name, i) => [name, step.job.pdfs[i]]) }
          : { id, document: step.job.documents[step.index] };
      child.send(message, (error) => error && this.fail(child, error));
    }
  }

  /** Ends the process once it has had nothing to make for idleExitMs: its memory goes back to the system. */
  private endWhenIdle(): void {
    const child = this.child;
    if (!child) return;
    clearTimeout(this.idleTimer);
    this.idleTimer = setTimeout(() => {
      if (this.child !== child || this.running) return;
      this.child = undefined;
      child.kill();
    }, this.idleExitMs);
    this.idleTimer.unref();
  }

  private process(): ChildProcess {
    if (this.child) return this.child;
    // Structured clone over the channel ('advanced'): the PDFs come back as bytes, not as JSON arrays.
    const child = fork(fileURLToPath(new URL('./invoice-pdf.process.js', import.meta.url)), [], {
      serialization: 'advanced',
      // One thread for V8 (no helper threads for collections and compilations): on a 2-vCPU VM, idle-class
      // Node processes with their helper threads raised another process's wake-up delay to a p99 of 4–5 ms,
      // against 0.5 ms with V8 on one thread (docs/performance.md, "Figures of 2026-11-27"); this process
      // does nothing but render, one document at a time.
      execArgv: [`--max-old-space-size=${PDF_PROCESS_HEAP_MB}`, '--single-threaded'],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    child.unref();
    child.channel?.unref();
    child.on('message', (result: PdfStepResult) => this.received(child, result));
    child.on('error', (error) => this.fail(child, error));
    child.on('exit', (code, signal) => this.fail(child, new Error(`The invoice PDF process stopped (${signal ?? `exit code ${code}`}).`)));
    this.child = child;
    return child;
  }

  private received(child: ChildProcess, result: PdfStepResult): void {
    const step = this.running;
    if (!step || step.child !== child || step.id !== result.id) return;
    this.running = undefined;
    const { job } = step;
    if ('error' in result) this.finish(job, new Error(`The invoice PDF could not be made: ${result.error}`));
    else {
      const bytes = Buffer.from(result.bytes.buffer, result.bytes.byteOffset, result.bytes.byteLength);
      if (step.index === 'zip') this.finish(job, [bytes]);
      else {
        job.pdfs[step.index] = bytes;
        if (!job.zipNames && step.index === job.documents.length - 1) this.finish(job, job.pdfs);
      }
    }
    this.next();
  }

  /**
   * The process failed or stopped: the print whose step it ran fails (it may be what stopped it, so it
   * is not run again), and the next step starts a new process.
   */
  private fail(child: ChildProcess, error: Error): void {
    if (this.child === child) {
      this.child = undefined;
      child.kill();
    }
    const step = this.running;
    if (step?.child !== child) return;
    this.running = undefined;
    this.finish(step.job, error);
    this.next();
  }

  private finish(job: PrintJob, outcome: Buffer[] | Error): void {
    if (job.done) return;
    job.done = true;
    this.metrics?.prints.inc({ outcome: outcome === NOBODY_WAITS ? 'dropped' : outcome instanceof Error ? 'failed' : 'made' });
    if (!(outcome instanceof Error)) this.metrics?.printDuration.observe((performance.now() - job.queuedAt) / 1000);
    if (outcome instanceof Error) job.reject(outcome);
    else job.resolve(outcome);
  }
}
