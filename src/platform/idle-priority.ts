import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { setPriority } from 'node:os';

/**
 * Puts every thread of this process (its V8 helper threads included, which its garbage collections use)
 * in Linux's idle scheduling class, SCHED_IDLE, with util-linux's `chrt`; where that is missing, at nice
 * 19; elsewhere it leaves the default. Threads made later inherit it. For a process whose work must never
 * delay another's on a core they share: the invoice PDF process (docs/settlement.md, "The PDF and its
 * download") and the PDF bench's printers (docs/performance.md, "The invoice PDF").
 */
export function runAtIdlePriority(): void {
  if (process.platform !== 'linux') return;
  if (spawnSync('chrt', ['--all-tasks', '--idle', '--pid', '0', String(process.pid)], { stdio: 'ignore' }).status === 0) return;
  setEveryThread(19, { exceptMain: false });
}

/**
 * The nice level of the service's helper threads (docs/architecture.md §9): low enough that a helper
 * woken by the request thread does not take the core from it, high enough that garbage collection,
 * password hashes and file writes still get a quarter of a core the request thread keeps busy (at 10,
 * the collector's sweeping fell behind under load: 15–20 MB more resident in `npm run bench`).
 */
export const HELPER_THREAD_NICE = 5;

/**
 * Lowers every thread of this process but the main one (the request thread) to HELPER_THREAD_NICE:
 * V8's platform workers (optimising compilations, concurrent marking and sweeping) and libuv's pool
 * (password hashes, file writes), all made before the service's code runs. Where they share a core
 * with the request thread, their work waits for it, rather than a compilation the request thread just
 * queued taking the core for several milliseconds while requests wait (docs/performance.md, "Figures
 * of 2026-11-26, the fourth session"). Where they have cores of their own, nothing changes. Linux
 * only (elsewhere nothing happens); the number of threads lowered.
 */
export function lowerHelperThreads(nice = HELPER_THREAD_NICE): number {
  if (process.platform !== 'linux') return 0;
  return setEveryThread(nice, { exceptMain: true });
}

/** Sets the nice level of this process's threads (the main one too, unless `exceptMain`); how many it set. */
function setEveryThread(nice: number, { exceptMain }: { exceptMain: boolean }): number {
  let set = 0;
  try {
    for (const task of readdirSync('/proc/self/task')) {
      if (exceptMain && Number(task) === process.pid) continue;
      try {
        setPriority(Number(task), nice);
        set++;
      } catch {
        /* the thread ended meanwhile, or this is not allowed here: its priority stays */
      }
    }
  } catch {
    /* no /proc: the default priority */
  }
  return set;
}

/** Lowers the calling thread (a worker thread's own) to HELPER_THREAD_NICE; Linux only. */
export function lowerThisThread(nice = HELPER_THREAD_NICE): void {
  if (process.platform !== 'linux') return;
  try {
    // Linux's setpriority with pid 0 applies to the calling thread alone.
    setPriority(0, nice);
  } catch {
    /* not allowed here: the default priority */
  }
}
