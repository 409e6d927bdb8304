import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
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
