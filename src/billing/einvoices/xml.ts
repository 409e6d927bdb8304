import { create } from 'xmlbuilder2';
import type { XMLBuilder } from 'xmlbuilder2/lib/interfaces.js';

/**
 * The little the two syntaxes need of xmlbuilder2 (docs/einvoices.md): a document, and leaves that are
 * left out when they have no value, so that an optional term absent is no empty element (which the
 * standard's rules refuse). Text is escaped by the library.
 */
export type Node = XMLBuilder;

/** A new document whose root is `name` with the namespace declarations `namespaces` (prefix → URI). */
export function xmlDocument(name: string, namespaces: Readonly<Record<string, string>>): Node {
  const attributes = Object.fromEntries(Object.entries(namespaces).map(([prefix, uri]) => [prefix ? `xmlns:${prefix}` : 'xmlns', uri]));
  return create({ version: '1.0', encoding: 'UTF-8' }).ele(name, attributes);
}

/** The document as text, indented. */
export const serialize = (root: Node): string => root.end({ prettyPrint: true });

/** Characters XML 1.0 cannot hold (control characters a description may carry) are dropped. */
const NOT_XML = /[^\u0009\u000A\u000D\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;

/** A child element with text, unless `value` is null, undefined or empty. */
export function leaf(parent: Node, name: string, value: string | null | undefined, attributes?: Readonly<Record<string, string>>): void {
  if (value === null || value === undefined || value === '') return;
  parent.ele(name, attributes).txt(value.replace(NOT_XML, '')).up();
}

/** A child element whose content `fill` writes. */
export function branch(parent: Node, name: string, fill: (node: Node) => void): void {
  const node = parent.ele(name);
  fill(node);
  node.up();
}
