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
  try {
    for (const task of readdirSync('/proc/self/task')) setPriority(Number(task), 19);
  } catch {
    /* not allowed here: the default priority */
  }
}
