import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { getPriority } from 'node:os';
import { describe, it } from 'node:test';
import { HELPER_THREAD_NICE } from './idle-priority.js';

const linux = process.platform === 'linux';
const moduleUrl = new URL('./idle-priority.js', import.meta.url).href;

/** Runs `script` (an ES module body) in a Node process of its own and parses what it prints. */
function inFreshProcess(script: string): any {
  return JSON.parse(execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' }));
}

// The nice value of a thread: field 19 of its stat line, counted after the command name's parenthesis.
const niceOf = `(stat) => Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16])`;

describe('helper threads yield to the request thread (docs/architecture.md §9)', { skip: !linux && 'Linux only' }, () => {
  it('lowers every thread the process started with but the main one', () => {
    const threads = inFreshProcess(`
      import { readdirSync, readFileSync } from 'node:fs';
      const { lowerHelperThreads } = await import(${JSON.stringify(moduleUrl)});
      const lowered = lowerHelperThreads();
      const niceOf = ${niceOf};
      const nice = Object.fromEntries(readdirSync('/proc/self/task').map((tid) => [tid, niceOf(readFileSync('/proc/self/task/' + tid + '/stat', 'utf8'))]));
      console.log(JSON.stringify({ pid: process.pid, lowered, nice }));
    `);
    const helpers = Object.entries(threads.nice as Record<string, number>).filter(([tid]) => Number(tid) !== threads.pid);
    // V8's platform workers at least (four by default), and libuv's pool when the module loader started it.
    assert.ok(helpers.length >= 4, `${helpers.length} helper threads`);
    assert.equal(threads.lowered, helpers.length);
    for (const [tid, nice] of helpers) assert.equal(nice, Math.max(HELPER_THREAD_NICE, getPriority()), `thread ${tid}`);
    assert.equal(threads.nice[threads.pid], getPriority(), "the request thread keeps its priority (this one's, which it inherited)");
  });

  it('lowers a worker thread that asks for itself, and only that thread', () => {
    const result = inFreshProcess(`
      import { readFileSync } from 'node:fs';
      import { Worker } from 'node:worker_threads';
      const niceOf = ${niceOf};
      const source = "const { lowerThisThread } = await import(" + ${JSON.stringify(JSON.stringify(moduleUrl))} + "); lowerThisThread(); " +
        "const { readFileSync } = await import('node:fs'); const { parentPort } = await import('node:worker_threads'); " +
        "parentPort.postMessage(readFileSync('/proc/thread-self/stat', 'utf8'));";
      const worker = new Worker(source, { eval: true, type: 'module' });
      const stat = await new Promise((resolve, reject) => { worker.once('message', resolve); worker.once('error', reject); });
      await worker.terminate();
      console.log(JSON.stringify({ worker: niceOf(stat), main: niceOf(readFileSync('/proc/thread-self/stat', 'utf8')) }));
    `);
    assert.deepEqual(result, { worker: Math.max(HELPER_THREAD_NICE, getPriority()), main: getPriority() });
  });
});
