// The case "billing run with universal credits" (docs/billing.md "Universal credits"): COWORKER_BILL_RUN of
// one customer, whose invoice has a line of a daily recurring sale and the credit line a universal credit
// pays it with (a conditional UPDATE of the credit, a use-history record). Each customer's runs ask for
// one day more than its last (Until), so every run has one occurrence to bill; its ratio is to the
// service's own plain create, as the booking case's is.
import type { Case } from './harness.js';
import { selectCases } from './harness.js';

export const UNIVERSAL_CREDITS_CASE = 'billing run with universal credits';
/** One customer per connection of the load, so runs rarely wait for one customer's turn. */
const CUSTOMERS = 50;
/** BENCH_UNIVERSAL_CREDIT=0: the control, the same runs with no credit (no credit line, no spend). */
const WITH_CREDIT = process.env.BENCH_UNIVERSAL_CREDIT !== '0';
/** The first occurrence of the daily sales; a customer's n-th run bills up to this day + n. */
const FIRST_DAY = Date.UTC(2001, 0, 1);

/** The case, its customers seeded through the API, when BENCH_CASES selects it; else none. */
export async function universalCreditCases(base: string, auth: Record<string, string>, baseline: string): Promise<Case[]> {
  if (!selectCases([{ name: UNIVERSAL_CREDITS_CASE }]).length) return [];
  const send = async (method: 'GET' | 'POST', path: string, body?: Record<string, unknown>): Promise<any> => {
    const response = await fetch(`${base}${path}`, {
      method,
      headers: { ...auth, 'content-type': 'application/json' },
      body: body && JSON.stringify(body),
    });
    const answer = (await response.json()) as { Message?: string };
    if (!response.ok) throw new Error(`seeding universal credits: ${method} ${path} answered ${response.status} ${answer.Message ?? ''}`);
    return answer;
  };
  const currency = (await send('GET', '/api/sys/businesses/1')).CurrencyId;
  const product = (
    await send('POST', '/api/billing/products', {
      BusinessId: 1,
      Name: 'Bench daily locker',
      Description: 'A locker, billed daily',
      Price: 2,
      CurrencyId: currency,
      SystemProductType: 1,
      AvailableAs: 3,
      DisplayOrder: 0,
    })
  ).Value.Id;
  const customers: number[] = [];
  for (let i = 0; i < CUSTOMERS; i++) {
    const customer = (
      await send('POST', '/api/spaces/coworkers', {
        BusinessId: 1,
        FullName: `Bench credit holder ${i}`,
        Email: `bench.credit.${i}@example.com`,
      })
    ).Value.Id;
    await send('POST', '/api/billing/coworkerproducts', {
      CoworkerId: customer,
      ProductId: product,
      RegularCharge: true,
      RepeatCycle: 2,
      SaleDate: '2001-01-01',
    });
    if (WITH_CREDIT)
      await send('POST', '/api/billing/coworkerbookingcredits', {
        CoworkerId: customer,
        BusinessId: 1,
        Description: 'Bench credit',
        IsUniversalCredit: true,
        TotalCredit: 1_000_000_000,
      });
    customers.push(customer);
  }
  const runs = customers.map(() => 0);
  let sent = 0;
  const body = () => {
    const k = sent++ % CUSTOMERS;
    const until = new Date(FIRST_DAY + runs[k]++ * 86_400_000).toISOString().slice(0, 10);
    return JSON.stringify({ Key: 'COWORKER_BILL_RUN', Ids: [customers[k]], Parameters: [{ Name: 'Until', Value: until }] });
  };
  return [
    {
      name: UNIVERSAL_CREDITS_CASE,
      target: null,
      method: 'POST',
      path: () => '/api/spaces/coworkers/runcommand',
      headers: { ...auth, 'content-type': 'application/json' },
      body,
      baseline,
    },
  ];
}
