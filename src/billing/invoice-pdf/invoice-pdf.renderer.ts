import { Injectable, type OnApplicationShutdown } from '@nestjs/common';
import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { PdfDocumentInput } from './invoice-pdf.js';
import type { PdfJob, PdfJobResult } from './invoice-pdf.process.js';

/** The PDF process's heap bound, apart from the service's (fonts and a few documents at a time). */
const PDF_PROCESS_HEAP_MB = 96;

/**
 * Renders invoice PDFs (and zips several) in a process of its own at the idle scheduling class
 * (docs/settlement.md, "The PDF and its download"): building one never holds up a request, even on a
 * service given one core; the fonts are parsed there once, and the request's thread only waits for the
 * bytes. The process starts on first use, is started again after a failure, and ends with the service.
 */
@Injectable()
export class InvoicePdfRenderer implements OnApplicationShutdown {
  private child: ChildProcess | undefined;
  private nextId = 1;
  private readonly waiting = new Map<number, { child: ChildProcess; resolve: (pdfs: Buffer[]) => void; reject: (error: Error) => void }>();

  /** The PDF of each document, in order. */
  render(documents: PdfDocumentInput[]): Promise<Buffer[]> {
    if (!documents.length) return Promise.resolve([]);
    return this.send(documents);
  }

  /** One zip of the documents' PDFs, the i-th named `names[i]` (distinct names). */
  async zip(documents: PdfDocumentInput[], names: string[]): Promise<Buffer> {
    if (names.length !== documents.length || new Set(names).size !== names.length) throw new Error('a zip needs one distinct name per document');
    const [zip] = await this.send(documents, names);
    return zip;
  }

  private send(documents: PdfDocumentInput[], zipNames?: string[]): Promise<Buffer[]> {
    const child = this.process();
    const id = this.nextId++;
    return new Promise<Buffer[]>((resolve, reject) => {
      this.waiting.set(id, { child, resolve, reject });
      // While a job waits, the channel keeps the service's event loop alive; idle, it does not.
      child.channel?.ref();
      const job: PdfJob = { id, documents };
      if (zipNames) job.zipNames = zipNames;
      child.send(job, (error) => error && this.fail(child, error));
    });
  }

  onApplicationShutdown(): void {
    const child = this.child;
    this.child = undefined;
    child?.kill();
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
    child.on('message', (result: PdfJobResult) => {
      const job = this.waiting.get(result.id);
      if (!job) return;
      this.waiting.delete(result.id);
      if (![...this.waiting.values()].some((other) => other.child === child)) child.channel?.unref();
      if ('error' in result) job.reject(new Error(`The invoice PDF could not be made: ${result.error}`));
      else job.resolve(result.pdfs.map((pdf) => Buffer.from(pdf.buffer, pdf.byteOffset, pdf.byteLength)));
    });
    child.on('error', (error) => this.fail(child, error));
    child.on('exit', (code, signal) => this.fail(child, new Error(`The invoice PDF process stopped (${signal ?? `exit code ${code}`}).`)));
    this.child = child;
    return child;
  }

  /** The process failed or stopped: its jobs fail, and the next job starts a new one. */
  private fail(child: ChildProcess, error: Error): void {
    if (this.child === child) {
      this.child = undefined;
      child.kill();
    }
    for (const [id, job] of this.waiting) {
      if (job.child !== child) continue;
      this.waiting.delete(id);
      job.reject(error);
    }
  }
}
