import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { pino } from 'pino';
import { deferredChildLogger, PinoNestLogger } from './logging.js';

function capture(level: string) {
  const lines: Array<Record<string, unknown>> = [];
  const logger = pino(
    { level, redact: { paths: ['*.password'], censor: '[redacted]' } },
    { write: (line: string) => lines.push(JSON.parse(line)) },
  );
  return { logger, lines };
}

describe('the per-request child logger', () => {
  it('writes enabled lines with the request id and the parent redaction, and skips disabled ones', () => {
    const { logger, lines } = capture('warn');
    const child = deferredChildLogger(logger, { reqId: 'r-1' }, {});
    child.info('not written');
    child.debug({ a: 1 }, 'not written');
    child.warn({ body: { password: 'secret' } }, 'written %s', 'once');
    child.error(new Error('boom'));
    assert.equal(lines.length, 2);
    assert.deepEqual(
      [lines[0].reqId, lines[0].msg, (lines[0].body as { password: string }).password],
      ['r-1', 'written once', '[redacted]'],
    );
    assert.equal(lines[1].reqId, 'r-1');
    assert.equal((lines[1].err as { message: string }).message, 'boom');
  });

  it('follows the level, its children keep the request id, and a route level makes a real child', () => {
    const { logger, lines } = capture('info');
    const child = deferredChildLogger(logger, { reqId: 'r-2' }, {});
    assert.equal(child.level, 'info');
    child.child({ part: 'x' }).info('from a grandchild');
    assert.deepEqual([lines[0].reqId, lines[0].part], ['r-2', 'x']);
    const quiet = deferredChildLogger(logger, { reqId: 'r-3' }, { level: 'error' });
    quiet.warn('not written');
    assert.equal(lines.length, 1);
  });
});

describe("Nest's log lines", () => {
  it("write the routes, controllers and modules mapped at start-up at debug, Nest's other lines at info", () => {
    const { logger, lines } = capture('info');
    const nest = new PinoNestLogger(logger);
    nest.log('Mapped {/api/billing/products, GET} route', 'RouterExplorer');
    nest.log('ProductsController {/api/billing/products}:', 'RoutesResolver');
    nest.log('ProductsModule dependencies initialized', 'InstanceLoader');
    nest.log('Nest application successfully started', 'NestApplication');
    assert.deepEqual(
      lines.map((line) => line.msg),
      ['Nest application successfully started'],
    );
    logger.level = 'debug';
    nest.log('Mapped {/api/billing/products, GET} route', 'RouterExplorer');
    assert.deepEqual([lines[1].msg, lines[1].level, lines[1].context], ['Mapped {/api/billing/products, GET} route', 20, 'RouterExplorer']);
  });
});
