import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { after, describe, it } from 'node:test';
import { unzipSync } from 'fflate';
import type { PdfDocumentInput } from './invoice-pdf-content.js';
import { InvoicePdfRenderer } from './invoice-pdf.renderer.js';

/** An invoice numbered `number` with `lineCount` lines. */
function invoice(number: string, lineCount: number): PdfDocumentInput {
  return {
    invoice: {
      InvoiceNumber: number,
      CreatedOn: '2025-04-01T09:00:00Z',
      CurrencyCode: 'EUR',
      BillToName: 'Ana',
      TotalAmount: 12 * lineCount,
      TaxAmount: 2 * lineCount,
      PaidAmount: 0,
      DueAmount: 12 * lineCount,
    },
    lines: Array.from({ length: lineCount }, (_, i) => ({
      Description: `Desk day ${i + 1}`,
      Quantity: 1,
      UnitPrice: 10,
      TaxRate: 20,
      SubTotal: 10,
      TaxAmount: 2,
      TotalAmount: 12,
    })),
    business: { Name: 'Desks' },
  };
}

const childOf = (renderer: InvoicePdfRenderer) => (renderer as unknown as { child?: ChildProcess }).child;
const isPdf = (bytes: Buffer) => bytes.subarray(0, 5).toString() === '%PDF-';

/** The order in which promises settle, by name. */
function settlementOrder(promises: Record<string, Promise<unknown>>): Promise<string[]> {
  const order: string[] = [];
  return Promise.all(
    Object.entries(promises).map(([name, promise]) =>
      promise.then(
        () => order.push(name),
        () => order.push(name),
      ),
    ),
  ).then(() => order);
}

describe("the PDF process's queue", () => {
  const renderer = new InvoicePdfRenderer();
  after(() => renderer.onApplicationShutdown());

  it("serves businesses in turn: a one-page print sent while another business's zip of three long invoices is made comes back before that zip", async () => {
    const zip = renderer.zip([invoice('1', 150), invoice('2', 150), invoice('3', 150)], ['1.pdf', '2.pdf', '3.pdf'], {
      owner: 'business 1',
    });
    const small = renderer.render([invoice('9', 1)], { owner: 'business 2' });
    assert.deepEqual(await settlementOrder({ small, zip }), ['small', 'zip']);
    assert.ok(isPdf((await small)[0]));
    assert.deepEqual(Object.keys(unzipSync(new Uint8Array(await zip))).sort(), ['1.pdf', '2.pdf', '3.pdf']);
  });

  it("a business's own prints stay in the order they were sent", async () => {
    const first = renderer.render([invoice('1', 60), invoice('2', 60)], { owner: 'business 1' });
    const second = renderer.render([invoice('3', 1)], { owner: 'business 1' });
    assert.deepEqual(await settlementOrder({ second, first }), ['first', 'second']);
  });

  it(
    'when the process dies on a print, that print fails and the prints waiting are made by a new process',
    { skip: process.platform !== 'linux' },
    async () => {
      await renderer.render([invoice('0', 1)]);
      const stopped = childOf(renderer)!;
      // Stopped, so that one print is surely on it and the other surely waiting when it is killed.
      stopped.kill('SIGSTOP');
      const onIt = renderer.render([invoice('1', 1)], { owner: 'business 1' });
      const waiting = renderer.render([invoice('2', 1)], { owner: 'business 2' });
      stopped.ref(); // unreferenced by the renderer, so that it never holds the service open; here the test waits for its end
      const exited = once(stopped, 'exit');
      stopped.kill('SIGKILL');
      await exited;
      await assert.rejects(onIt, /PDF process stopped \(SIGKILL\)/);
      assert.ok(isPdf((await waiting)[0]));
      assert.notEqual(childOf(renderer)!.pid, stopped.pid);
    },
  );

  it('skips a print nobody waits for any more, and goes on with the next', async () => {
    let gone = false;
    const running = renderer.render([invoice('1', 60)], { owner: 'business 1' });
    const abandoned = renderer.render([invoice('2', 1)], { owner: 'business 2', abandoned: () => gone });
    const next = renderer.render([invoice('3', 1)], { owner: 'business 3' });
    gone = true;
    await assert.rejects(abandoned, /answered already/);
    assert.ok(isPdf((await running)[0]));
    assert.ok(isPdf((await next)[0]));
  });

  it(
    'ends the process after it has had nothing to make for a while, and starts a new one for the next print',
    { skip: process.platform !== 'linux' },
    async () => {
      const idle = new InvoicePdfRenderer();
      idle.idleExitMs = 200;
      try {
        assert.ok(isPdf((await idle.render([invoice('1', 1)]))[0]));
        const first = childOf(idle)!;
        first.ref(); // the renderer leaves it unreferenced; here the test waits for its end
        await once(first, 'exit');
        assert.equal(childOf(idle), undefined);
        assert.ok(isPdf((await idle.render([invoice('2', 1)]))[0]));
        assert.notEqual(childOf(idle)!.pid, first.pid);
      } finally {
        idle.onApplicationShutdown();
      }
    },
  );
});
