import { Injectable, type OnApplicationShutdown } from '@nestjs/common';
import { Worker } from 'node:worker_threads';
import type { PdfDocumentInput } from './invoice-pdf.js';
import type { PdfJob, PdfJobResult } from './invoice-pdf.worker.js';

/**
 * Renders invoice PDFs (and zips several) on a worker thread of its own (docs/api.md §10.3: building one
 * does not hold up other requests): the fonts are parsed there once, and the request's thread only waits
 * for the bytes.
 * The thread starts on first use, and is restarted after a failure.
 */
@Injectable()
export class InvoicePdfRenderer implements OnApplicationShutdown {
  private worker: Worker | undefined;
  private nextId = 1;
  private readonly waiting = new Map<number, { worker: Worker; resolve: (pdfs: Buffer[]) => void; reject: (error: Error) => void }>();

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
    const worker = this.thread();
    const id = this.nextId++;
    return new Promise<Buffer[]>((resolve, reject) => {
      this.waiting.set(id, { worker, resolve, reject });
      worker.postMessage({ id, documents, ...(zipNames ? { zipNames } : {}) } satisfies PdfJob);
    });
  }

  onApplicationShutdown(): Promise<void> {
    const worker = this.worker;
    this.worker = undefined;
    return worker ? worker.terminate().then(() => undefined) : Promise.resolve();
  }

  private thread(): Worker {
    if (this.worker) return this.worker;
    // Its heap is bounded apart from the service's (fonts and a few documents at a time).
    const worker = new Worker(new URL('./invoice-pdf.worker.js', import.meta.url), { resourceLimits: { maxOldGenerationSizeMb: 96 } });
    worker.unref();
    worker.on('message', (result: PdfJobResult) => {
      const job = this.waiting.get(result.id);
      if (!job) return;
      this.waiting.delete(result.id);
      if ('error' in result) job.reject(new Error(`The invoice PDF could not be made: ${result.error}`));
      else job.resolve(result.pdfs.map((pdf) => Buffer.from(pdf.buffer, pdf.byteOffset, pdf.byteLength)));
    });
    const fail = (error: Error) => {
      if (this.worker === worker) this.worker = undefined;
      for (const [id, job] of this.waiting) {
        if (job.worker !== worker) continue;
        this.waiting.delete(id);
        job.reject(error);
      }
    };
    worker.on('error', fail);
    worker.on('exit', (code) => fail(new Error(`The invoice PDF thread stopped (exit code ${code}).`)));
    this.worker = worker;
    return worker;
  }
}
