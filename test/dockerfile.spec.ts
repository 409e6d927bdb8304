import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { validate } from 'dockerfile-utils';
import { runtimeEnvironment } from '../src/runtime-settings.js';
import { ROOT, START_COMMAND } from './support/service.js';

// No Docker engine runs here: the Dockerfile is linted and its production properties checked instead
// of built.

const text = readFileSync(join(ROOT, 'Dockerfile'), 'utf8');

/** Instructions with their continuation lines joined, comments dropped. */
const instructions = text
  .replace(/\\\r?\n/g, ' ')
  .split(/\r?\n/)
  .map((line) => line.trim())
  .filter((line) => line && !line.startsWith('#'))
  .map((line) => {
    const space = line.search(/\s/);
    return { keyword: line.slice(0, space).toUpperCase(), args: line.slice(space + 1).trim() };
  });
const stages: Array<typeof instructions> = [];
for (const instruction of instructions) {
  if (instruction.keyword === 'FROM') stages.push([]);
  stages.at(-1)?.push(instruction);
}
const runtime = stages.at(-1)!;
const last = (keyword: string) => runtime.filter((i) => i.keyword === keyword).at(-1);

describe('Dockerfile', () => {
  it('passes the linter (dockerfile-utils) without a problem', () => {
    const problems = validate(text);
    assert.deepEqual(
      problems.map((p) => `line ${p.range.start.line + 1}: ${p.message}`),
      [],
    );
  });

  it('is multi-stage: built with the toolchain and dev dependencies, which are pruned', () => {
    assert.ok(stages.length >= 2, 'at least a build and a runtime stage');
    const from = runtime[0].args;
    assert.match(from, /^node:24[\w.-]*-slim\b/, `small runtime base image on Node 24, got ${from}`);
    assert.ok(
      instructions.filter((i) => i.keyword === 'FROM').every((i) => !/:latest\b/.test(i.args) && /:/.test(i.args)),
      'base images are tagged',
    );
    assert.ok(
      stages.slice(0, -1).some((stage) => stage.some((i) => i.keyword === 'RUN' && /npm (prune --omit=dev|ci --omit=dev)/.test(i.args))),
      'dev dependencies pruned',
    );
    assert.ok(
      runtime.some((i) => i.keyword === 'COPY' && /--from=build/.test(i.args)),
      'the runtime copies the build',
    );
    assert.ok(
      !runtime.some((i) => i.keyword === 'RUN' && /apt-get install|npm (ci|install)/.test(i.args)),
      'nothing is installed in the runtime stage',
    );
  });

  it('runs as a non-root user, in production mode', () => {
    const user = last('USER');
    assert.ok(user && !/^(root|0)(:|$)/.test(user.args), 'USER is not root');
    assert.match(last('ENV')?.args ?? '', /NODE_ENV=production/);
  });

  it('has a HEALTHCHECK on /health', () => {
    const check = last('HEALTHCHECK');
    assert.ok(check, 'HEALTHCHECK');
    assert.match(check.args, /\/health/);
    assert.match(check.args, /--start-period=/);
  });

  it("sets the service's runtime settings (src/runtime-settings.ts), so the image starts with them and no relaunch", () => {
    const environment: Record<string, string> = {};
    for (const { args } of runtime.filter((i) => i.keyword === 'ENV')) {
      for (const [, name, quoted, plain] of args.matchAll(/(\w+)=(?:"([^"]*)"|(\S+))/g)) environment[name] = quoted ?? plain;
    }
    for (const [name, value] of Object.entries(runtimeEnvironment())) assert.equal(environment[name], value, name);
  });

  it("starts with exactly the cluster test's command (exec form)", () => {
    assert.deepEqual(JSON.parse(last('CMD')!.args), [...START_COMMAND]);
    assert.equal(last('ENTRYPOINT'), undefined);
  });
});
