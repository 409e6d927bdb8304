/**
 * The request thread's lane for bulk work (docs/settlement.md, "The PDF and its download"): a step that awaits `bulkTurn()`
 * runs in a later turn of the event loop, in its check phase, one waiting step per turn, after the poll
 * phase has taken the requests that arrived meanwhile. An interactive request (a GET by id) then waits
 * behind at most one bulk step, not behind every print and download that happened to be ready at once.
 */
const waiting: Array<() => void> = [];
let armed = false;

function runOne(): void {
  armed = false;
  const next = waiting.shift();
  // Armed before the step runs: an immediate set during the check phase runs in the next turn, so the
  // step after this one waits for the requests that arrive while this one runs.
  if (waiting.length) arm();
  next?.();
}

function arm(): void {
  if (armed) return;
  armed = true;
  setImmediate(runOne);
}

/** Resolves in a later turn of the event loop: waiting steps resume in order, one per turn. */
export function bulkTurn(): Promise<void> {
  return new Promise((resolve) => {
    waiting.push(resolve);
    arm();
  });
}
