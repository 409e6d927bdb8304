import { fragment } from 'xmlbuilder2';
import type { XMLBuilder } from 'xmlbuilder2/lib/interfaces.js';

/**
 * What makes the invoice PDF a Factur-X (docs/api.md §14.3, docs/einvoices.md): the CII embedded as
 * `factur-x.xml` (an associated file of the document, in its /AF array and its /EmbeddedFiles), and the
 * XMP metadata of PDF/A-3b with Factur-X's `fx:` properties and the PDF/A extension schema declaring
 * them. PDFKit does each part itself: `subset: 'PDF/A-3b'` writes pdfaid part 3 conformance B and the
 * sRGB output intent, `file()` the embedded file, `appendXML()` our XMP; we only build the XMP here.
 */

export const FACTUR_X_FILE_NAME = 'factur-x.xml';

/** The PDFKit options that make a document PDF/A-3b (fonts are embedded already: invoice-pdf.ts). */
export const FACTUR_X_PDF_OPTIONS = { pdfVersion: '1.7', subset: 'PDF/A-3b' } as const;

const RDF = 'http://www.w3.org/1999/02/22-rdf-syntax-ns#';
const FX = 'urn:factur-x:pdfa:CrossIndustryDocument:invoice:1p0#';

/** Factur-X's properties, with the description the extension schema gives each. */
const PROPERTIES: ReadonlyArray<[name: string, value: string, description: string]> = [
  ['DocumentType', 'INVOICE', 'The type of the hybrid document in capital letters, e.g. INVOICE or ORDER'],
  ['DocumentFileName', FACTUR_X_FILE_NAME, 'The name of the embedded XML document'],
  ['Version', '1.0', 'The actual version of the standard applying to the embedded XML document'],
  ['ConformanceLevel', 'EN 16931', 'The conformance level of the embedded XML document'],
];

/** The subset of PDFKit's document this file uses. */
interface FacturXDocument {
  info: Record<string, unknown>;
  file(data: Uint8Array, options: Record<string, unknown>): unknown;
  appendXML(xml: string, newline?: boolean): void;
}

/** The rdf:Description elements Factur-X adds to the XMP packet (the rdf prefix declared on each: it stands alone). */
export function facturXmp(): string {
  const xmp = fragment();
  const values = xmp.ele('rdf:Description', { 'xmlns:rdf': RDF, 'xmlns:fx': FX, 'rdf:about': '' });
  for (const [name, value] of PROPERTIES) values.ele(`fx:${name}`).txt(value);
  const extension = xmp.ele('rdf:Description', {
    'xmlns:rdf': RDF,
    'xmlns:pdfaExtension': 'http://www.aiim.org/pdfa/ns/extension/',
    'xmlns:pdfaSchema': 'http://www.aiim.org/pdfa/ns/schema#',
    'xmlns:pdfaProperty': 'http://www.aiim.org/pdfa/ns/property#',
    'rdf:about': '',
  });
  const schema = extension.ele('pdfaExtension:schemas').ele('rdf:Bag').ele('rdf:li', { 'rdf:parseType': 'Resource' });
  schema.ele('pdfaSchema:schema').txt('Factur-X PDFA Extension Schema');
  schema.ele('pdfaSchema:namespaceURI').txt(FX);
  schema.ele('pdfaSchema:prefix').txt('fx');
  const properties = schema.ele('pdfaSchema:property').ele('rdf:Seq');
  for (const [name, , description] of PROPERTIES) property(properties, name, description);
  return xmp.end({ prettyPrint: true });
}

function property(sequence: XMLBuilder, name: string, description: string): void {
  const item = sequence.ele('rdf:li', { 'rdf:parseType': 'Resource' });
  item.ele('pdfaProperty:name').txt(name);
  item.ele('pdfaProperty:valueType').txt('Text');
  item.ele('pdfaProperty:category').txt('external');
  item.ele('pdfaProperty:description').txt(description);
}

/** XML's special characters as entities, for the Info values PDFKit copies into the XMP as they are. */
const escapeXml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * Embeds the CII in a PDFKit document made with FACTUR_X_PDF_OPTIONS and adds Factur-X's XMP. Call before
 * `end()`. `issued` dates the embedded file (the invoice's date, so one invoice always gives the same file).
 */
export function embedFacturX(doc: FacturXDocument, cii: string, issued: Date): void {
  doc.file(Buffer.from(cii, 'utf8'), {
    name: FACTUR_X_FILE_NAME,
    type: 'text/xml',
    relationship: 'Alternative',
    description: 'Factur-X invoice (EN 16931)',
    creationDate: issued,
    modifiedDate: issued,
  });
  doc.appendXML(facturXmp());
  // PDFKit writes the Info strings (title, author) into the XMP without escaping them, after it has
  // written the Info dictionary itself: from then on they are given escaped, so "A & B" stays XML.
  const writeInfo = (doc as unknown as { _addInfo: () => void })._addInfo;
  (doc as unknown as { _addInfo: () => void })._addInfo = function addEscapedInfo(this: FacturXDocument) {
    const info = this.info;
    this.info = Object.fromEntries(Object.entries(info).map(([key, value]) => [key, typeof value === 'string' ? escapeXml(value) : value]));
    try {
      writeInfo.call(this);
    } finally {
      this.info = info;
    }
  };
}
