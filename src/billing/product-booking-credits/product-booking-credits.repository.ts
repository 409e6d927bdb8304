import type { SqlContext } from '../../records/record-definition.js';
import { Business } from '../../kernel/businesses/business.entity.js';
import { Currency } from '../../kernel/currencies/currency.entity.js';
import { Product } from '../products/product.entity.js';

// The SQL of product booking credits beyond the machinery's own: a read-only field two tables away.

/** SQL of ProductBusinessCurrencyCode: the currency of the product's business (product → business → currency). */
export const productBusinessCurrencyCodeSql = (q: SqlContext): string =>
  `(SELECT c.${q.id('Code')} FROM ${q.table(Product)} p JOIN ${q.table(Business)} b ON b.${q.id('Id')} = p.${q.id('BusinessId')} ` +
  `JOIN ${q.table(Currency)} c ON c.${q.id('Id')} = b.${q.id('CurrencyId')} WHERE p.${q.id('Id')} = ${q.alias}.${q.id('ProductId')})`;
