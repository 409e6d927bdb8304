import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { promisify } from 'node:util';
import { dirname, join } from 'node:path';

// The official CEN/TC 434 validation rules of EN 16931 (the XSLT of github:ConnectingEurope/eInvoicing-EN16931),
// run with SaxonJS (npm's xslt3), for the e-invoice suites (docs/einvoices.md, "Validating"). The
// artefacts are not the repository's: EN16931_ARTEFACTS names the folder they were extracted into.

export const ARTEFACTS = process.env.EN16931_ARTEFACTS ?? '';
export const WHY_SKIPPED =
  'EN16931_ARTEFACTS is not set: the folder of the CEN/TC 434 validation artefacts (github:ConnectingEurope/eInvoicing-EN16931, ' +
  'holding cii/xslt/EN16931-CII-validation.xslt and ubl/xslt/EN16931-UBL-validation.xslt) is needed to validate e-invoices';

const require = createRequire(import.meta.url);
const XSLT3 = require.resolve('xslt3/xslt3.js');
// SaxonJS as xslt3 ships it: the compiled stylesheets run in this process.
const SaxonJS = createRequire(XSLT3)('saxon-js') as {
  transform(options: Record<string, unknown>, mode: 'sync'): { principalResult: string };
};

export type Syntax = 'cii' | 'ubl';
const STYLESHEETS: Record<Syntax, string> = { cii: 'cii/xslt/EN16931-CII-validation.xslt', ubl: 'ubl/xslt/EN16931-UBL-validation.xslt' };
const compiled = new Map<Syntax, unknown>();

/**
 * Compiles the stylesheets of both syntaxes with xslt3 (a minute or more each), in a process of its own
 * so the service under test keeps answering, and keeps them in the system's temporary folder by the
 * hash of the XSLT, so later runs load them in a fraction of a second. Call before `validate`.
 */
export async function compileValidators(): Promise<void> {
  for (const syntax of Object.keys(STYLESHEETS) as Syntax[]) {
    const sef = await compiledFile(syntax);
    compiled.set(syntax, JSON.parse(readFileSync(sef, 'utf8')));
  }
}

async function compiledFile(syntax: Syntax): Promise<string> {
  const xslt = join(ARTEFACTS, STYLESHEETS[syntax]);
  const hash = createHash('sha256').update(readFileSync(xslt)).digest('hex').slice(0, 16);
  const sef = join(tmpdir(), 'en16931-validation', `${syntax}-${hash}.sef.json`);
  if (!existsSync(sef)) {
    mkdirSync(dirname(sef), { recursive: true });
    const partial = `${sef}.${process.pid}`;
    await promisify(execFile)(process.execPath, [XSLT3, `-xsl:${xslt}`, `-export:${partial}`, '-nogo']);
    renameSync(partial, sef);
  }
  return sef;
}

/** A failed assertion of the rules: its id (BR-…), its flag and its text. */
export interface FailedAssert {
  id: string;
  flag: string;
  text: string;
}

/** Every failed assertion the rules of `syntax` report on the document (SVRL failed-assert elements). */
export function validate(syntax: Syntax, xml: string | Uint8Array): FailedAssert[] {
  const sourceText = typeof xml === 'string' ? xml : Buffer.from(xml).toString('utf8');
  const svrl = SaxonJS.transform(
    { stylesheetInternal: compiled.get(syntax), sourceText, destination: 'serialized' },
    'sync',
  ).principalResult;
  return [...svrl.matchAll(/<svrl:failed-assert\b([^>]*)>([\s\S]*?)<\/svrl:failed-assert>/g)].map(([, attributes, body]) => ({
    id: /\bid="([^"]*)"/.exec(attributes)?.[1] ?? '',
    flag: /\bflag="([^"]*)"/.exec(attributes)?.[1] ?? '',
    text: (/<svrl:text>([\s\S]*?)<\/svrl:text>/.exec(body)?.[1] ?? '').trim(),
  }));
}
