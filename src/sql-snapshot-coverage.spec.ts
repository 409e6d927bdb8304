import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import ts from 'typescript';
import { GUARANTEES } from './guarantee-sql.js';
import { STATEMENTS } from './repository-sql.js';

// Compiled layout: dist/src/this-file.js; the sources are read from the repository's src/.
const src = join(import.meta.dirname, '..', '..', 'src');

/**
 * Public repository methods that need no entry of their own, with why: they send no SQL (statement builders,
 * conditions and probes another entry runs), or their SQL is in every docs/sql/<dialect>/<Type>.sql. Every
 * other one must be run by an entry of src/repository-sql*.ts or src/guarantee-sql.ts, so that docs/sql/
 * holds its SQL.
 */
const NO_ENTRY_NEEDED: ReadonlyMap<string, string> = new Map([
  // SQL that another method runs, shown in that method's entry.
  ['CoworkerBookingCreditsRepository.applicableCondition', "a list's condition, which RecordRepository.narrowed's entry runs"],
  ['WebhooksRepository.activeHookCount', "a probe, which ChangeLogRepository.insert's and insertMany's entries run"],
  // The record machinery: statement builders run nothing; recordSql prints what they build into every
  // docs/sql/<dialect>/<Type>.sql (src/records/record-sql.ts).
  ['RecordRepository.byIdStatement', 'builds the read by id of <Type>.sql; runs nothing'],
  ['RecordRepository.pageStatements', 'builds the list page and count of <Type>.sql; runs nothing'],
  ['RecordRepository.batchStatement', 'builds the batch get of <Type>.sql; runs nothing'],
  ['RecordRepository.insertStatement', 'builds the insert of <Type>.sql; runs nothing'],
  ['RecordRepository.updateStatement', 'builds the updates of <Type>.sql; runs nothing'],
  ['RecordRepository.deleteStatement', 'builds the deletes of <Type>.sql; runs nothing'],
  ['RecordRepository.scopeCondition', "builds the restricted administrator's condition of <Type>.sql; runs nothing"],
  ['RecordRepository.isInScope', 'reads the in-scope flag of a row already read; runs nothing'],
  // The record machinery's runners send exactly what the builders above build, per record type: their SQL
  // is in every <Type>.sql, which shows it for each type rather than for one sample.
  ['RecordRepository.findById', 'sends byIdStatement: "read by id" of every <Type>.sql'],
  ['RecordRepository.page', 'sends pageStatements: "list page" and "list count" of every <Type>.sql'],
  ['RecordRepository.batch', 'sends batchStatement: "batch get" of every <Type>.sql'],
  ['RecordRepository.insert', 'sends insertStatement: "insert" of every <Type>.sql'],
  ['RecordRepository.update', 'sends updateStatement: "update" of every <Type>.sql'],
  ['RecordRepository.delete', 'sends deleteStatement: "delete" of every <Type>.sql'],
  // SQL fragments of the contracts that other statements and the coworker's read fields embed.
  ['activeContractSql', "the condition of an active contract, in the statements and Coworker.sql's fields that embed it"],
  ['mainActiveContractSql', "the read of a customer's main contract, in Coworker.sql's fields that embed it"],
]);

/**
 * `Class.method` of every public method (static ones too) of every class exported from a `*.repository.ts`
 * of src/, and the name of every function such a file exports (a function declaration), read from the sources.
 */
function repositoryMethods(): string[] {
  const found: string[] = [];
  const files = readdirSync(src, { recursive: true, encoding: 'utf8' }).filter((file) => file.endsWith('.repository.ts'));
  assert.ok(files.length > 30, `the scan reads the repositories (${files.length} files)`);
  for (const file of files.sort()) {
    const source = ts.createSourceFile(file, readFileSync(join(src, file), 'utf8'), ts.ScriptTarget.Latest);
    for (const statement of source.statements) {
      if (!isExported(statement)) continue;
      if (ts.isFunctionDeclaration(statement) && statement.name) found.push(statement.name.text);
      if (!ts.isClassDeclaration(statement) || !statement.name) continue;
      for (const member of statement.members) {
        if (!ts.isMethodDeclaration(member) || !ts.isIdentifier(member.name)) continue;
        const hidden = ts
          .getModifiers(member)
          ?.some((m) => [ts.SyntaxKind.PrivateKeyword, ts.SyntaxKind.ProtectedKeyword].includes(m.kind));
        if (!hidden) found.push(`${statement.name.text}.${member.name.text}`);
      }
    }
  }
  return [...new Set(found)];
}

function isExported(statement: ts.Statement): boolean {
  return ts.canHaveModifiers(statement) && !!ts.getModifiers(statement)?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword);
}

/** The `Class.method`s the snapshot entries run: a repository entry's name up to its first space, a guarantee's `methods`. */
function shownMethods(): Set<string> {
  return new Set([...STATEMENTS.map((statement) => statement.name.split(' ')[0]), ...GUARANTEES.flatMap((guarantee) => guarantee.methods)]);
}

describe('SQL snapshots cover every repository method (docs/architecture.md, "SQL snapshots")', () => {
  it('every public repository method is run by an entry of repository-sql or guarantee-sql, or needs none', () => {
    const methods = repositoryMethods();
    assert.ok(methods.length > 150, `the scan finds the methods (${methods.length})`);
    const shown = shownMethods();
    const missing = methods.filter((method) => !shown.has(method) && !NO_ENTRY_NEEDED.has(method));
    assert.deepEqual(
      missing,
      [],
      `${missing.length} of ${methods.length} public repository methods have no entry in src/repository-sql*.ts or src/guarantee-sql.ts (add one, ` +
        `then run \`npm run sql:snapshots\`), or belong in NO_ENTRY_NEEDED:\n${missing.join('\n')}`,
    );
  });

  it('names only methods that exist, and none both shown and excused', () => {
    const methods = new Set(repositoryMethods());
    const shown = shownMethods();
    // The one method of the façade a guarantee runs (Database.recordTurn) is no repository's.
    const unknown = [...shown, ...NO_ENTRY_NEEDED.keys()].filter((method) => !methods.has(method) && !method.startsWith('Database.'));
    assert.deepEqual(unknown, [], 'entries name repository methods that do not exist (renamed or made private?)');
    const both = [...NO_ENTRY_NEEDED.keys()].filter((method) => shown.has(method));
    assert.deepEqual(both, [], 'these are shown by an entry, so they are no exception');
  });
});
