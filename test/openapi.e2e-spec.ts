import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Ajv, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import openapiTS, { astToString } from 'openapi-typescript';
import ts from 'typescript';
import type { RecordDefinition } from '../src/records/record-definition.js';
import { createBilledInvoice, createCreditSpendingBooking } from './support/billing-fixtures.js';
import { ROOT } from './support/service.js';
import { ADMIN_EMAIL, ADMIN_PASSWORD, appPerSuite, type HttpResponse } from './support/test-app.js';
import { fieldsOf, offers, pathOf, RecordMaker } from './support/valid-records.js';
import { RecordTypes } from '../src/records/record-types.js';

// The OpenAPI document at /api/docs-json describes every answer the service gives (docs/api.md §10):
// Redocly's recommended rules find nothing in it, real answers of every operation of every record type
// validate against its response schemas, and TypeScript types generated from it (openapi-typescript)
// type-check a client holding those same answers. A new record type is covered without changing this file.

type Document = {
  paths: Record<
    string,
    Record<string, { responses: Record<string, { content?: Record<string, { schema: unknown }> }>; security?: unknown[] }>
  >;
} & Record<string, unknown>;

const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;
const UNKNOWN_ID = 2_147_483_647;
/** Operations whose 200 has no body, by design. */
const EMPTY_ANSWERS = new Set(['post /api/public/events/{id}/joinWaitingList']);

/** One real answer and the operation whose documented response it must match. */
interface Seen {
  path: string;
  method: string;
  status: number;
  body: unknown;
  /** The constant's name in the generated client; null when it is not put there. */
  constant: string | null;
}

/** A checker of answers against the document's response schemas. */
function answerChecker(document: Document) {
  const ajv = new Ajv({ strict: false, allErrors: true, validateSchema: false });
  addFormats(ajv);
  ajv.addSchema(document, 'openapi.json');
  const compiled = new Map<string, ValidateFunction>();
  const pointer = (...tokens: string[]) =>
    tokens.map((token) => encodeURIComponent(token.replace(/~/g, '~0').replace(/\//g, '~1'))).join('/');
  return (path: string, method: string, status: number, body: unknown): string[] => {
    const response = document.paths[path]?.[method]?.responses[String(status)];
    if (!response) return [`${method.toUpperCase()} ${path} documents no ${status}`];
    if (!response.content) return body === undefined ? [] : [`${method.toUpperCase()} ${path} ${status} documents no body`];
    const key = `${path} ${method} ${status}`;
    let validate = compiled.get(key);
    if (!validate) {
      validate = ajv.getSchema(
        `openapi.json#/${pointer('paths', path, method, 'responses', String(status), 'content', 'application/json', 'schema')}`,
      )!;
      compiled.set(key, validate);
    }
    return validate(body) ? [] : [`${method.toUpperCase()} ${path} ${status}: ${ajv.errorsText(validate.errors)}`];
  };
}

/** TypeScript diagnostics of files compiled together (strict), as text. */
function typeErrors(folder: string, files: Record<string, string>): string[] {
  for (const [name, text] of Object.entries(files)) writeFileSync(join(folder, name), text);
  const program = ts.createProgram(
    Object.keys(files).map((name) => join(folder, name)),
    {
      strict: true,
      noEmit: true,
      skipLibCheck: true,
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      lib: ['lib.es2022.d.ts', 'lib.dom.d.ts'],
      types: [],
    },
  );
  return ts.getPreEmitDiagnostics(program).map((d) => `${d.file?.fileName ?? ''}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`);
}

const identifier = (definition: RecordDefinition<any>) => definition.name.replace(/\W/g, '_');

describe('the OpenAPI document', () => {
  const t = appPerSuite();
  let document: Document;
  let folder: string;
  const seen: Seen[] = [];
  const described: RecordDefinition<any>[] = [];

  before(async () => {
    const res = await t.get('/api/docs-json', { auth: null });
    assert.equal(res.status, 200);
    document = res.body;
    folder = mkdtempSync(join(tmpdir(), 'openapi-client-'));
    described.push(
      ...t.app
        .get(RecordTypes)
        .definitions()
        .filter((d) => document.paths[pathOf(d)] || document.paths[`${pathOf(d)}/{id}`]),
    );
  });
  after(() => rmSync(folder, { recursive: true, force: true }));

  it("passes Redocly's recommended rules with no error and no warning", () => {
    const file = join(folder, 'openapi.json');
    writeFileSync(file, JSON.stringify(document));
    const run = spawnSync(process.execPath, [join(ROOT, 'node_modules/@redocly/cli/bin/cli.js'), 'lint', file, '--format=json'], {
      encoding: 'utf8',
      env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_COLOR: '1' },
    });
    const report = JSON.parse(run.stdout.slice(run.stdout.indexOf('{'))) as {
      totals: { errors: number; warnings: number };
      problems: Array<{ ruleId: string; message: string; location: Array<{ pointer: string }> }>;
    };
    const problems = report.problems.map((p) => `${p.ruleId}: ${p.message} at ${p.location[0]?.pointer}`);
    assert.deepEqual(problems, []);
    assert.deepEqual(report.totals, { ...report.totals, errors: 0, warnings: 0 });
    assert.equal(run.status, 0, run.stderr);
  });

  it('gives every operation its security (none on the public routes), every 2xx a body schema, no parameter an example, and a server', () => {
    const missing: string[] = [];
    const publicOnes: string[] = [];
    for (const [path, item] of Object.entries(document.paths)) {
      for (const [method, operation] of Object.entries(item)) {
        const name = `${method} ${path}`;
        if (!Array.isArray(operation.security)) missing.push(`${name}: no security`);
        else if (operation.security.length === 0) publicOnes.push(name);
        // Swagger UI's "Try it out" sends a parameter's example: a list would become a batch get.
        for (const parameter of (operation as { parameters?: Array<{ name: string; example?: unknown; schema?: { example?: unknown } }> })
          .parameters ?? []) {
          if (parameter.example !== undefined || parameter.schema?.example !== undefined)
            missing.push(`${name}: parameter ${parameter.name} has an example`);
        }
        for (const [status, response] of Object.entries(operation.responses)) {
          if (status.startsWith('2') && !response.content && !EMPTY_ANSWERS.has(name))
            missing.push(`${name}: ${status} has no body schema`);
        }
      }
    }
    assert.deepEqual(missing, []);
    // The download link of a printed invoice works without credentials (docs/settlement.md).
    assert.deepEqual(publicOnes.sort(), [
      'get /ContentDownload/DownloadTempDataFile',
      'get /api/public/events',
      'get /api/public/events/{id}',
      'get /health',
      'get /health/live',
      'get /health/ready',
      'post /api/token',
    ]);
    assert.ok(Array.isArray(document.servers) && document.servers.length > 0);
    assert.ok(described.length >= 19, described.map((d) => d.name).join(', '));
  });

  it('describes every real answer of every operation of every record type, and of the token and public routes', async () => {
    const check = answerChecker(document);
    const failures: string[] = [];
    const record = (path: string, method: string, res: HttpResponse, expected: number, constant: string | null) => {
      if (res.status !== expected)
        failures.push(`${method.toUpperCase()} ${path}: ${res.status}, expected ${expected}: ${res.text.slice(0, 300)}`);
      failures.push(...check(path, method, res.status, res.text === '' ? undefined : res.body));
      seen.push({ path, method, status: res.status, body: res.text === '' ? undefined : res.body, constant });
    };
    const maker = new RecordMaker(t);
    // Invoice lines and billing runs are written by billing runs only, credit use history by bookings only.
    await createBilledInvoice(t);
    await createCreditSpendingBooking(t);
    const ids = new Map<RecordDefinition<any>, number>();
    for (const definition of described) {
      const base = pathOf(definition);
      const name = identifier(definition);
      if (offers(definition, 'create') && definition.dto) {
        const made = await maker.createValid(definition, new Set(), (res) => {
          if (res.status === 200) record(base, 'post', res as HttpResponse, 200, `${name}_created`);
        });
        ids.set(definition, made.id);
        if (!maker.ids.has(definition.entity)) maker.ids.set(definition.entity, made.id);
        seen.push({ path: base, method: 'post-body', status: 0, body: made.body, constant: `${name}_createBody` });
      } else {
        ids.set(definition, await maker.recordOf(definition.entity));
      }
    }
    for (const definition of described) {
      const base = pathOf(definition);
      const name = identifier(definition);
      const id = ids.get(definition)!;
      record(base, 'get', await t.get(`${base}?size=2&orderBy=Id&dir=desc`), 200, `${name}_list`);
      record(`${base}/batch`, 'get', await t.get(`${base}/batch?id=[${id}]`), 200, `${name}_batch`);
      record(`${base}/batch`, 'get', await t.get(`${base}/batch?id=1,x`), 400, null);
      // The list route still answers the platform's batch form, with the same records.
      const platformBatch = await t.get(`${base}?id=[${id}]`);
      if (JSON.stringify(platformBatch.body) !== JSON.stringify(seen.at(-2)!.body))
        failures.push(`GET ${base}?id=[${id}] differs from ${base}/batch`);
      record(base, 'get', await t.get(`${base}?orderBy=NoSuchField`), 400, `${name}_listRefused`);
      record(`${base}/{id}`, 'get', await t.get(`${base}/${id}`), 200, `${name}_record`);
      record(`${base}/{id}`, 'get', await t.get(`${base}/${UNKNOWN_ID}`), 404, `${name}_notFound`);
      if (document.paths[`${base}/{id}/history`]) record(`${base}/{id}/history`, 'get', await t.get(`${base}/${id}/history`), 200, null);
      if (offers(definition, 'create') && definition.dto) {
        // Every field of the body at once with a value no rule takes: the 400 names them.
        const invalid = Object.fromEntries(fieldsOf(definition.dto).map((field) => [field.name, { wrong: true }]));
        record(base, 'post', await t.post(base, invalid), 400, `${name}_invalid`);
      }
      if (offers(definition, 'update') && (definition.updateDto ?? definition.dto)) {
        const stored = (await t.get(`${base}/${id}`)).body;
        record(`${base}/{id}`, 'put', await t.put(`${base}/${id}`, stored), 200, `${name}_updated`);
        record(base, 'put', await t.put(base, { ...stored, Id: id }), 200, null);
        const { Id: _id, ...withoutId } = stored;
        record(`${base}/{id}`, 'put', await t.put(`${base}/${UNKNOWN_ID}`, withoutId), 404, null);
        seen.push({ path: base, method: 'put-body', status: 0, body: stored, constant: `${name}_putBack` });
      }
    }
    // Deletes last, the records that refer to others first.
    for (const { definition, id } of [...maker.made].reverse()) {
      if (!offers(definition, 'delete') || !described.includes(definition)) continue;
      const base = pathOf(definition);
      const first = ids.get(definition) === id;
      const res = await t.delete(`${base}/${id}`);
      // A record others still refer to (a business with invoices, which are never deleted) is refused.
      const refused = res.status === 400 && /cannot be deleted/.test(String(res.body?.Message));
      record(`${base}/{id}`, 'delete', res, refused ? 400 : 200, first && !refused ? `${identifier(definition)}_deleted` : null);
      if (!refused) record(`${base}/{id}`, 'delete', await t.delete(`${base}/${id}`), 404, null);
    }
    // Beside the record types: the token endpoint, its refusals, the public events and the health check.
    const form = { grant_type: 'password', username: ADMIN_EMAIL, password: ADMIN_PASSWORD };
    record('/api/token', 'post', await t.post('/api/token', undefined, { form, auth: null }), 200, 'token');
    record(
      '/api/token',
      'post',
      await t.post('/api/token', undefined, { form: { ...form, password: 'wrong' }, auth: null }),
      400,
      'tokenRefused',
    );
    record('/api/public/events', 'get', await t.get('/api/public/events', { auth: null }), 200, 'publicEvents');
    record('/api/public/events', 'get', await t.get('/api/public/events?page=x', { auth: null }), 400, null);
    record('/api/public/events/{id}', 'get', await t.get(`/api/public/events/${UNKNOWN_ID}`, { auth: null }), 404, null);
    record('/health', 'get', await t.get('/health', { auth: null }), 200, 'health');
    record('/api/utils/enums', 'get', await t.get('/api/utils/enums?name=eSystemProductType'), 200, 'enums');
    record('/api/billing/products', 'get', await t.get('/api/billing/products', { auth: null }), 401, 'unauthorized');

    assert.deepEqual(failures, []);
    const operations = new Set(seen.filter((s) => s.status).map((s) => `${s.method} ${s.path} ${s.status}`));
    for (const definition of described) {
      const base = pathOf(definition);
      assert.ok(operations.has(`get ${base} 200`) && operations.has(`get ${base}/{id} 404`), definition.name);
      if (offers(definition, 'delete') && definition.dto && offers(definition, 'create')) {
        assert.ok(operations.has(`delete ${base}/{id} 200`) || operations.has(`delete ${base}/{id} 400`), `${definition.name} delete`);
      }
    }
    // The checker can fail: an answer with a field of the wrong type, or one missing, is refused.
    const product = seen.find((s) => s.constant === 'Product_record')!;
    assert.notDeepEqual(check(product.path, 'get', 200, { ...(product.body as object), Id: 'one' }), []);
    const { Name: _name, ...withoutName } = product.body as Record<string, unknown>;
    assert.notDeepEqual(check(product.path, 'get', 200, withoutName), []);
  });

  it('generates TypeScript types that a client holding the real answers of every record type compiles against', async () => {
    assert.ok(seen.length > 100, 'the answers are collected by the test before');
    const types = astToString(await openapiTS(document as never));
    const typeOf = (s: Seen) => {
      if (s.method === 'post-body') return `paths['${s.path}']['post']['requestBody']['content']['application/json']`;
      if (s.method === 'put-body') return `NonNullable<paths['${s.path}/{id}']['put']['requestBody']>['content']['application/json']`;
      return `paths['${s.path}']['${s.method}']['responses'][${s.status}]['content']['application/json']`;
    };
    const lines = [
      `import type { components, paths } from './schema.js';`,
      `type Schemas = components['schemas'];`,
      `/** A typed call: the answer of the operation, as the document types it. */`,
      `export async function call<T>(url: string, init: RequestInit = {}): Promise<T> {`,
      `  const res = await fetch(url, init);`,
      `  return (await res.json()) as T;`,
      `}`,
    ];
    for (const s of seen) {
      if (!s.constant) continue;
      // The answers as received (the put-back body: the record as read, which a client PUTs back).
      lines.push(
        s.method === 'put-body'
          ? `export const ${s.constant}: ${typeOf(s)} = { ...${s.constant.replace(/_putBack$/, '_record')} };`
          : `export const ${s.constant}: ${typeOf(s)} = ${JSON.stringify(s.body)};`,
      );
    }
    for (const definition of described) {
      const name = identifier(definition);
      const base = pathOf(definition);
      lines.push(
        `export async function ${name}_calls(base: string, authorization: string) {`,
        `  const headers = { authorization, 'content-type': 'application/json' };`,
        `  const query: NonNullable<paths['${base}']['get']['parameters']['query']> = { page: 1, size: 2, orderBy: 'Id', dir: 'desc', ${name}_Id: 1 };`,
        `  const list = await call<${typeOf({ path: base, method: 'get', status: 200 } as Seen)}>(\`\${base}${base}?\${new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)]))}\`, { headers });`,
        `  const first: Schemas['${definition.name}'] | undefined = list.Records[0];`,
        `  const several: Schemas['${definition.name}'][] = await call<${typeOf({ path: `${base}/batch`, method: 'get', status: 200 } as Seen)}>(\`\${base}${base}/batch?id=[1,2]\`, { headers });`,
        `  if (several.length > 2) return null;`,
        `  if (!first) return null;`,
        `  const id: number = first.Id;`,
        `  const one = await call<Schemas['${definition.name}']>(\`\${base}${base}/\${id}\`, { headers });`,
        ...(document.paths[base]?.post
          ? [
              `  const created = await call<${typeOf({ path: base, method: 'post', status: 200 } as Seen)}>(\`\${base}${base}\`, { method: 'POST', headers, body: JSON.stringify(${name}_createBody) });`,
              `  const newId: number = created.Value.Id;`,
            ]
          : [`  const newId = id;`]),
        ...(document.paths[`${base}/{id}`]?.put
          ? [
              `  const body: NonNullable<paths['${base}/{id}']['put']['requestBody']>['content']['application/json'] = { ...one };`,
              `  const updated = await call<Schemas['ActionConfirmation']>(\`\${base}${base}/\${newId}\`, { method: 'PUT', headers, body: JSON.stringify(body) });`,
              `  if (!updated.WasSuccessful) return updated.Errors?.map((e) => e.PropertyName) ?? [];`,
            ]
          : []),
        `  return [one.ToStringText, one.UpdatedOn];`,
        `}`,
      );
    }
    const errors = typeErrors(folder, { 'schema.ts': types, 'client.ts': `${lines.join('\n')}\n` });
    assert.deepEqual(errors.slice(0, 20), []);
    // The types can fail: a record with a field of the wrong type, or an unknown field, does not compile.
    const wrong = typeErrors(folder, {
      'schema.ts': types,
      'wrong.ts': [
        `import type { components } from './schema.js';`,
        `export const a: components['schemas']['Product'] = { ...(${JSON.stringify(seen.find((s) => s.constant === 'Product_record')!.body)}), Id: 'one' };`,
        `export const b: components['schemas']['ActionConfirmation'] = { ...(${JSON.stringify(seen.find((s) => s.constant === 'Product_updated')!.body)}), NoSuchKey: 1 };`,
      ].join('\n'),
    });
    assert.equal(wrong.length, 2, wrong.join('\n'));
  });
});
