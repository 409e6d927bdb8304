import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { OutageLog } from './outage-log.js';

describe('OutageLog', () => {
  const logged = () => {
    const lines: string[] = [];
    return { lines, logger: { warn: (m: string) => lines.push(`warn ${m}`), log: (m: string) => lines.push(`info ${m}`) } };
  };

  it('logs the first failure of an outage and its end, once each', () => {
    const { lines, logger } = logged();
    const outage = new OutageLog(logger);
    outage.recovered('back');
    assert.deepEqual(lines, [], 'a success outside an outage logs nothing');
    for (let i = 0; i < 14; i++) outage.failed('down', new Error(`refused ${i}`));
    assert.equal(outage.ongoing, true);
    outage.recovered('back');
    outage.recovered('back');
    assert.equal(outage.ongoing, false);
    assert.deepEqual(lines, ['warn down: refused 0', 'info back']);
  });

  it('a second outage is logged again, and a message without an error stands alone', () => {
    const { lines, logger } = logged();
    const outage = new OutageLog(logger);
    outage.failed('down');
    outage.recovered('back');
    outage.failed('down again', 'timeout');
    outage.failed('down again', 'timeout');
    assert.deepEqual(lines, ['warn down', 'info back', 'warn down again: timeout']);
  });
});
