import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import openapiTS, { astToString } from 'openapi-typescript';
import ts from 'typescript';
import { ROOT } from './support/service.js';
import { ADMIN_EMAIL, ADMIN_PASSWORD, appPerSuite } from './support/test-app.js';

// A typed client can call every feature (docs/api.md §10): a client is generated from the served OpenAPI
// document (openapi-typescript's types for openapi-fetch's calls), and a program written against it
// (test/typed-client/program.ts) is compiled strictly and run against the service: it logs in, lists,
// creates and batch-gets products, previews and runs a billing run, pays and prints an invoice and
// books a resource. A command body with a Key the document does not declare does not compile.

const run = promisify(execFile);

/** TypeScript diagnostics of files compiled together, strict, emitting JavaScript into the folder. */
function compile(folder: string, files: Record<string, string>): string[] {
  for (const [name, text] of Object.entries(files)) writeFileSync(join(folder, name), text);
  const program = ts.createProgram(
    Object.keys(files).map((name) => join(folder, name)),
    {
      strict: true,
      outDir: folder,
      skipLibCheck: true,
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      lib: ['lib.es2022.d.ts', 'lib.dom.d.ts'],
      types: ['node'],
      typeRoots: [join(ROOT, 'node_modules', '@types')],
    },
  );
  const emitted = program.emit();
  return [...ts.getPreEmitDiagnostics(program), ...emitted.diagnostics].map(
    (d) => `${d.file?.fileName ?? ''}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`,
  );
}

describe('a client generated from the OpenAPI document', () => {
  const t = appPerSuite();
  let folder: string;
  let schema: string;

  before(async () => {
    const res = await t.get('/api/docs-json', { auth: null });
    assert.equal(res.status, 200);
    schema = astToString(await openapiTS(res.body));
    // Inside the project, so that the program finds openapi-fetch in its node_modules.
    mkdirSync(join(ROOT, 'dist'), { recursive: true });
    folder = mkdtempSync(join(ROOT, 'dist', 'typed-client-'));
    writeFileSync(join(folder, 'package.json'), JSON.stringify({ type: 'module' }));
  });
  after(() => rmSync(folder, { recursive: true, force: true }));

  it('compiles a program that calls the service, which then logs in, bills, pays, prints and books', async () => {
    const program = readFileSync(join(ROOT, 'test', 'typed-client', 'program.ts'), 'utf8');
    assert.deepEqual(compile(folder, { 'schema.ts': schema, 'program.ts': program }).slice(0, 20), []);
    // The server runs in this process: the program must run beside it, not block it.
    const { stdout } = await run(process.execPath, [join(folder, 'program.js'), t.url, ADMIN_EMAIL, ADMIN_PASSWORD], { timeout: 60_000 });
    const results = JSON.parse(stdout.trim().split('\n').at(-1)!);
    assert.deepEqual(results.productNames, ['Locker']);
    assert.equal(results.batchIds.length, 1);
    // January of a 200.00 tariff and two lockers at 12.50, untaxed.
    assert.deepEqual(results.previewTotal, [225]);
    assert.equal(results.previewLines.length, 2);
    assert.deepEqual(results.made, [{ TotalAmount: 225, numbered: true }]);
    assert.equal(results.paid, true);
    assert.equal(results.dueAmount, 0);
    assert.equal(results.pdfStart, '%PDF-');
    assert.equal(results.bookingPrice, 30);
  });

  it('refuses, at compile time, a command the document does not declare and a parameter of the wrong type', () => {
    const wrong = [
      `import createClient from 'openapi-fetch';`,
      `import type { paths } from './schema.js';`,
      `const api = createClient<paths>({ baseUrl: 'http://127.0.0.1' });`,
      `export const a = api.POST('/api/spaces/coworkers/runcommand', { body: { Key: 'NO_SUCH_COMMAND', Ids: [1] } });`,
      `export const b = api.POST('/api/spaces/coworkers/runcommand', { body: { Key: 'COWORKER_BILL_RUN', Ids: [1], Parameters: [{ Name: 'Preview', Value: { yes: 1 } }] } });`,
      `export const c = api.GET('/api/billing/products/batch', { params: { query: {} } });`,
    ].join('\n');
    const errors = compile(folder, { 'schema.ts': schema, 'wrong.ts': wrong });
    assert.equal(errors.length, 3, errors.join('\n'));
  });
});
