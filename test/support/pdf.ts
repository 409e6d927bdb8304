import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * The text pdftotext (poppler-utils) finds in a PDF, its layout kept; with `flowing`, in reading order
 * with every run of white space one space (a table cell's wrapped text reads as one).
 */
export function pdfText(pdf: Uint8Array, flowing = false): string {
  const dir = mkdtempSync(join(tmpdir(), 'settlement-pdf-'));
  try {
    const file = join(dir, 'invoice.pdf');
    writeFileSync(file, pdf);
    if (flowing) return execFileSync('pdftotext', ['-enc', 'UTF-8', file, '-'], { encoding: 'utf8' }).replace(/\s+/g, ' ');
    return execFileSync('pdftotext', ['-layout', '-enc', 'UTF-8', file, '-'], { encoding: 'utf8' });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The files embedded in a PDF, by name, as pdfdetach (poppler-utils) extracts them. */
export function pdfAttachments(pdf: Uint8Array): Record<string, Buffer> {
  const dir = mkdtempSync(join(tmpdir(), 'attachments-pdf-'));
  try {
    const file = join(dir, 'document.pdf');
    writeFileSync(file, pdf);
    const out = join(dir, 'out');
    mkdirSync(out);
    execFileSync('pdfdetach', ['-saveall', '-o', out, file]);
    return Object.fromEntries(readdirSync(out).map((name) => [name, readFileSync(join(out, name))]));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
