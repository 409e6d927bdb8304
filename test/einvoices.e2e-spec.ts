import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { createUser } from './support/auth.js';
import { convert, eInvoiceWorld, EXPORT, exportOf, INVOICES, ok, unzipped, type EInvoiceWorld } from './support/einvoice-fixtures.js';
import { create, createCoworker, currencyId } from './support/fixtures.js';
import { createProduct, linesOf } from './support/billing-fixtures.js';
import { pdfAttachments, pdfText } from './support/pdf.js';
import { tableRows } from './support/record-checks.js';
import { basicAuth } from './support/test-app.js';
import { appPerSuite } from './support/test-app.js';

// E-invoices (docs/api.md §14, docs/einvoices.md): the EN 16931 export of invoices made by billing runs,
// read back with the same XML library: each document says the invoice's own values.

type Xml = Record<string, any>;
const parse = (bytes: Uint8Array): Xml => convert(Buffer.from(bytes).toString('utf8'), { format: 'object' });
/** The children named `name` as a list (one child is an object, several an array). */
const all = (node: Xml | undefined, name: string): Xml[] => {
  const value = node?.[name];
  return value === undefined ? [] : Array.isArray(value) ? value : [value];
};
/** The text of the child at `path` (names separated by /). */
const text = (node: Xml, path: string): string | undefined => {
  let current: any = node;
  for (const name of path.split('/')) current = current?.[name];
  const raw = current === undefined ? undefined : typeof current === 'object' ? current['#'] : String(current);
  // xmlbuilder2's object form keeps the entities of the text as written.
  return raw?.replace(/&(lt|gt|quot|apos|amp);/g, (_: string, name: string) => ENTITIES[name]);
};
const ENTITIES: Record<string, string> = { lt: '<', gt: '>', quot: '"', apos: "'", amp: '&' };
const cents = (amount: number) => (Math.round(amount * 100) / 100).toFixed(2);
const day = (wire: string) => wire.slice(0, 10);
const STATE_TABLES = ['coworkerinvoice', 'coworkerinvoiceline', 'coworkerledgerentry', 'change_log', 'download_file'];

describe('e-invoices (EN 16931)', () => {
  const t = appPerSuite();
  let world: EInvoiceWorld;
  const read = async (id: number) => (await t.get(`${INVOICES}/${id}`)).body;
  const run = (ids: number[], parameters: Array<{ Name: string; Value: unknown }>, auth?: string) =>
    t.post(`${INVOICES}/runcommand`, { Key: EXPORT, Ids: ids, Parameters: parameters }, auth ? { auth } : {});

  before(async () => {
    world = await eInvoiceWorld(t);
  });

  it('UBL: an invoice says its number, dates, parties, each line, the VAT breakdown, the totals and the amount due', async () => {
    const invoice = await read(world.mixed);
    const lines = await linesOf(t, world.mixed);
    const file = await exportOf(t, [world.mixed], 'ubl');
    assert.equal(file.name, `Invoice-${invoice.InvoiceNumber}.xml`);
    assert.match(file.type, /^application\/xml/);
    const doc = parse(file.bytes).Invoice;
    assert.equal(text(doc, 'cbc:CustomizationID'), 'urn:cen.eu:en16931:2017');
    assert.equal(text(doc, 'cbc:ID'), invoice.InvoiceNumber);
    assert.equal(text(doc, 'cbc:IssueDate'), day(invoice.CreatedOn));
    assert.equal(text(doc, 'cbc:DueDate'), day(invoice.DueDate));
    assert.equal(text(doc, 'cbc:InvoiceTypeCode'), '380');
    assert.equal(text(doc, 'cbc:DocumentCurrencyCode'), 'EUR');
    assert.equal(text(doc, 'cbc:BuyerReference'), 'PO-2025-0042');
    assert.equal(text(doc, 'cac:InvoicePeriod/cbc:StartDate'), day(invoice.InvoiceFromDate));
    assert.equal(text(doc, 'cac:InvoicePeriod/cbc:EndDate'), day(invoice.InvoiceToDate));
    assert.equal(text(doc, 'cac:PaymentTerms/cbc:Note'), `Due ${day(invoice.DueDate)}`);
    const seller = doc['cac:AccountingSupplierParty']['cac:Party'];
    assert.equal(text(seller, 'cac:PartyLegalEntity/cbc:RegistrationName'), 'Café Coworking GmbH');
    assert.equal(text(seller, 'cac:PartyLegalEntity/cbc:CompanyID'), 'HRB 123456 B');
    assert.equal(text(seller, 'cac:PartyName/cbc:Name'), 'Café Coworking Berlin');
    assert.equal(text(seller, 'cac:PartyTaxScheme/cbc:CompanyID'), 'DE123456789');
    assert.equal(text(seller, 'cac:PostalAddress/cbc:StreetName'), 'Torstraße 1');
    assert.equal(text(seller, 'cac:PostalAddress/cac:Country/cbc:IdentificationCode'), 'DE');
    const buyer = doc['cac:AccountingCustomerParty']['cac:Party'];
    assert.equal(text(buyer, 'cac:PartyLegalEntity/cbc:RegistrationName'), invoice.BillToName);
    assert.equal(text(buyer, 'cac:PartyTaxScheme/cbc:CompanyID'), invoice.BillToTaxIDNumber);
    assert.equal(text(buyer, 'cac:PostalAddress/cbc:CityName'), 'Paris');
    assert.equal(text(buyer, 'cac:PostalAddress/cac:Country/cbc:IdentificationCode'), 'FR');
    assert.equal(text(doc, 'cac:PaymentMeans/cbc:PaymentMeansCode'), '58');
    assert.equal(text(doc, 'cac:PaymentMeans/cbc:PaymentID'), invoice.InvoiceNumber);
    assert.equal(text(doc, 'cac:PaymentMeans/cac:PayeeFinancialAccount/cbc:ID'), 'DE89370400440532013000');
    assert.equal(text(doc, 'cac:PaymentMeans/cac:PayeeFinancialAccount/cac:FinancialInstitutionBranch/cbc:ID'), 'COBADEFFXXX');

    const written = all(doc, 'cac:InvoiceLine');
    assert.equal(written.length, lines.length);
    const categories: Record<number, string> = {
      [world.rates.standard]: 'S',
      [world.rates.zero]: 'Z',
      [world.rates.exempt]: 'E',
      [world.rates.reverse]: 'AE',
    };
    for (const [i, line] of lines.entries()) {
      const node = written[i];
      assert.equal(text(node, 'cbc:ID'), String(line.Position));
      assert.equal(text(node, 'cbc:InvoicedQuantity'), String(line.Quantity));
      assert.equal(node['cbc:InvoicedQuantity']['@unitCode'], 'C62');
      assert.equal(Number(text(node, 'cac:Price/cbc:PriceAmount')), line.UnitPrice);
      assert.match(text(node, 'cac:Price/cbc:PriceAmount')!, /^\d+\.\d{2,4}$/);
      assert.equal(text(node, 'cbc:LineExtensionAmount'), cents(line.SubTotal));
      assert.equal(text(node, 'cac:Item/cbc:Name'), line.Description);
      assert.equal(text(node, 'cac:Item/cac:ClassifiedTaxCategory/cbc:ID'), categories[line.TaxRateId]);
      assert.equal(Number(text(node, 'cac:Item/cac:ClassifiedTaxCategory/cbc:Percent')), line.TaxRate);
      assert.equal(text(node, 'cac:InvoicePeriod/cbc:StartDate'), day(line.PeriodFrom));
    }
    // The special characters of a description are escaped, not lost.
    assert.ok(written.some((node) => text(node, 'cac:Item/cbc:Name')?.startsWith('Coffee & <cake>')));

    const groups = all(doc['cac:TaxTotal'], 'cac:TaxSubtotal');
    assert.deepEqual(groups.map((group) => text(group, 'cac:TaxCategory/cbc:ID')).sort(), ['AE', 'E', 'S', 'Z']);
    for (const group of groups) {
      const category = text(group, 'cac:TaxCategory/cbc:ID')!;
      const own = lines.filter((line) => categories[line.TaxRateId] === category);
      assert.equal(text(group, 'cbc:TaxableAmount'), cents(own.reduce((sum, line) => sum + line.SubTotal, 0)));
      assert.equal(text(group, 'cbc:TaxAmount'), cents(own.reduce((sum, line) => sum + line.TaxAmount, 0)));
    }
    const exempt = groups.find((group) => text(group, 'cac:TaxCategory/cbc:ID') === 'E')!;
    assert.equal(text(exempt, 'cac:TaxCategory/cbc:TaxExemptionReasonCode'), 'VATEX-EU-132');
    assert.equal(text(exempt, 'cac:TaxCategory/cbc:TaxExemptionReason'), 'Exempt letting of immovable property');

    const net = lines.reduce((sum, line) => sum + line.SubTotal, 0);
    assert.equal(text(doc, 'cac:TaxTotal/cbc:TaxAmount'), cents(invoice.TaxAmount));
    assert.equal(text(doc, 'cac:LegalMonetaryTotal/cbc:LineExtensionAmount'), cents(net));
    assert.equal(text(doc, 'cac:LegalMonetaryTotal/cbc:TaxExclusiveAmount'), cents(net));
    assert.equal(text(doc, 'cac:LegalMonetaryTotal/cbc:TaxInclusiveAmount'), cents(invoice.TotalAmount));
    assert.equal(text(doc, 'cac:LegalMonetaryTotal/cbc:PrepaidAmount'), '100.00');
    // The credit note is a document of its own: BT-115 is the total less what was paid.
    assert.equal(text(doc, 'cac:LegalMonetaryTotal/cbc:PayableAmount'), cents(invoice.TotalAmount - 100));
    assert.equal(doc['cac:LegalMonetaryTotal']['cbc:PayableAmount']['@currencyID'], 'EUR');
  });

  it('CII: the same invoice in the same terms, the seller and buyer VAT identifiers, the payment means, the totals', async () => {
    const invoice = await read(world.mixed);
    const file = await exportOf(t, [world.mixed], 'Cii');
    assert.equal(file.name, `Invoice-${invoice.InvoiceNumber}.xml`);
    const doc = parse(file.bytes)['rsm:CrossIndustryInvoice'];
    assert.equal(
      text(doc, 'rsm:ExchangedDocumentContext/ram:GuidelineSpecifiedDocumentContextParameter/ram:ID'),
      'urn:cen.eu:en16931:2017',
    );
    assert.equal(text(doc, 'rsm:ExchangedDocument/ram:ID'), invoice.InvoiceNumber);
    assert.equal(text(doc, 'rsm:ExchangedDocument/ram:TypeCode'), '380');
    assert.equal(text(doc, 'rsm:ExchangedDocument/ram:IssueDateTime/udt:DateTimeString'), day(invoice.CreatedOn).replaceAll('-', ''));
    const trade = doc['rsm:SupplyChainTradeTransaction'];
    assert.equal(all(trade, 'ram:IncludedSupplyChainTradeLineItem').length, (await linesOf(t, world.mixed)).length);
    const agreement = trade['ram:ApplicableHeaderTradeAgreement'];
    assert.equal(text(agreement, 'ram:BuyerReference'), 'PO-2025-0042');
    assert.equal(text(agreement, 'ram:SellerTradeParty/ram:Name'), 'Café Coworking GmbH');
    assert.equal(text(agreement, 'ram:SellerTradeParty/ram:SpecifiedTaxRegistration/ram:ID'), 'DE123456789');
    assert.equal(text(agreement, 'ram:BuyerTradeParty/ram:Name'), invoice.BillToName);
    assert.equal(text(agreement, 'ram:BuyerTradeParty/ram:SpecifiedTaxRegistration/ram:ID'), invoice.BillToTaxIDNumber);
    const settlement = trade['ram:ApplicableHeaderTradeSettlement'];
    assert.equal(text(settlement, 'ram:InvoiceCurrencyCode'), 'EUR');
    assert.equal(text(settlement, 'ram:SpecifiedTradeSettlementPaymentMeans/ram:TypeCode'), '58');
    assert.equal(
      text(settlement, 'ram:SpecifiedTradeSettlementPaymentMeans/ram:PayeePartyCreditorFinancialAccount/ram:IBANID'),
      'DE89370400440532013000',
    );
    assert.equal(all(settlement, 'ram:ApplicableTradeTax').length, 4);
    const sums = settlement['ram:SpecifiedTradeSettlementHeaderMonetarySummation'];
    assert.equal(text(sums, 'ram:GrandTotalAmount'), cents(invoice.TotalAmount));
    assert.equal(text(sums, 'ram:TaxTotalAmount'), cents(invoice.TaxAmount));
    assert.equal(text(sums, 'ram:TotalPrepaidAmount'), '100.00');
    assert.equal(text(sums, 'ram:DuePayableAmount'), cents(invoice.TotalAmount - 100));
  });

  it("a credit note: type 381, its original (BG-3), positive amounts, its line split over the original's VAT groups, no payment means", async () => {
    const note = await read(world.creditNote);
    const original = await read(world.mixed);
    const ubl = await exportOf(t, [world.creditNote], 'UBL');
    assert.equal(ubl.name, `CreditNote-${note.InvoiceNumber}.xml`);
    const doc = parse(ubl.bytes).CreditNote;
    assert.equal(text(doc, 'cbc:CreditNoteTypeCode'), '381');
    assert.equal(text(doc, 'cac:BillingReference/cac:InvoiceDocumentReference/cbc:ID'), original.InvoiceNumber);
    assert.equal(text(doc, 'cac:BillingReference/cac:InvoiceDocumentReference/cbc:IssueDate'), day(original.CreatedOn));
    assert.equal(text(doc, 'cac:PaymentTerms/cbc:Note'), `Credit note of invoice ${original.InvoiceNumber}`);
    assert.equal(doc['cac:PaymentMeans'], undefined);
    assert.equal(text(doc, 'cac:LegalMonetaryTotal/cbc:TaxInclusiveAmount'), '50.00');
    assert.equal(text(doc, 'cac:LegalMonetaryTotal/cbc:PayableAmount'), '50.00');
    assert.equal(text(doc, 'cac:TaxTotal/cbc:TaxAmount'), cents(-note.TaxAmount));
    const lines = all(doc, 'cac:CreditNoteLine');
    assert.equal(lines.length, 4, 'one line per VAT group of the original');
    const nets = lines.map((line) => Number(text(line, 'cbc:LineExtensionAmount')));
    assert.equal(cents(nets.reduce((a, b) => a + b, 0)), cents(50 + note.TaxAmount));
    for (const line of lines) assert.equal(text(line, 'cac:Item/cbc:Name'), (await linesOf(t, world.creditNote))[0].Description);
    const groups = all(doc['cac:TaxTotal'], 'cac:TaxSubtotal');
    assert.equal(cents(groups.reduce((sum, group) => sum + Number(text(group, 'cbc:TaxAmount')), 0)), cents(-note.TaxAmount));

    const cii = parse((await exportOf(t, [world.creditNote], 'cii')).bytes)['rsm:CrossIndustryInvoice'];
    assert.equal(text(cii, 'rsm:ExchangedDocument/ram:TypeCode'), '381');
    const settlement = cii['rsm:SupplyChainTradeTransaction']['ram:ApplicableHeaderTradeSettlement'];
    assert.equal(text(settlement, 'ram:InvoiceReferencedDocument/ram:IssuerAssignedID'), original.InvoiceNumber);
    assert.equal(text(settlement, 'ram:SpecifiedTradeSettlementHeaderMonetarySummation/ram:DuePayableAmount'), '50.00');
  });

  it('outside the scope of VAT (O): no VAT identifiers, no rate, the registration number names the seller', async () => {
    const doc = parse((await exportOf(t, [world.outsideScope], 'UBL')).bytes).Invoice;
    const seller = doc['cac:AccountingSupplierParty']['cac:Party'];
    assert.equal(seller['cac:PartyTaxScheme'], undefined);
    assert.equal(doc['cac:AccountingCustomerParty']['cac:Party']['cac:PartyTaxScheme'], undefined);
    assert.equal(text(seller, 'cac:PartyLegalEntity/cbc:CompanyID'), 'VR 4711');
    assert.equal(text(seller, 'cac:PartyLegalEntity/cbc:RegistrationName'), 'Verein Coworking');
    const line = all(doc, 'cac:InvoiceLine')[0];
    assert.equal(text(line, 'cac:Item/cac:ClassifiedTaxCategory/cbc:ID'), 'O');
    assert.equal(text(line, 'cac:Item/cac:ClassifiedTaxCategory/cbc:Percent'), undefined);
    assert.equal(doc['cac:PaymentMeans'], undefined, 'no IBAN: no payment means');
  });

  it('Factur-X: the invoice PDF with factur-x.xml, the CII byte for byte, as an associated file with the PDF/A-3 and fx: XMP', async () => {
    const invoice = await read(world.mixed);
    const pdf = await exportOf(t, [world.mixed], 'facturx');
    assert.equal(pdf.name, `Invoice-${invoice.InvoiceNumber}.pdf`);
    assert.match(pdf.type, /^application\/pdf/);
    const cii = await exportOf(t, [world.mixed], 'CII');
    const attachments = pdfAttachments(pdf.bytes);
    assert.deepEqual(Object.keys(attachments), ['factur-x.xml']);
    assert.ok(Buffer.from(cii.bytes).equals(attachments['factur-x.xml']), 'the embedded CII is the CII export');
    const raw = Buffer.from(pdf.bytes).toString('latin1');
    assert.match(raw, /\/AFRelationship \/(Alternative|Data)/);
    assert.match(raw, /\/Subtype \/text#2Fxml/);
    assert.match(raw, /\/AF \[\d+ 0 R\]/);
    assert.match(raw, /\/EmbeddedFiles/);
    for (const xmp of [
      '<pdfaid:part>3</pdfaid:part>',
      '<pdfaid:conformance>B</pdfaid:conformance>',
      'xmlns:fx="urn:factur-x:pdfa:CrossIndustryDocument:invoice:1p0#"',
      '<fx:DocumentType>INVOICE</fx:DocumentType>',
      '<fx:DocumentFileName>factur-x.xml</fx:DocumentFileName>',
      '<fx:Version>1.0</fx:Version>',
      '<fx:ConformanceLevel>EN 16931</fx:ConformanceLevel>',
      '<pdfaSchema:prefix>fx</pdfaSchema:prefix>',
    ]) {
      assert.ok(raw.includes(xmp), xmp);
    }
    // The §10.3 PDF: its text is the invoice's.
    assert.match(pdfText(pdf.bytes, true), new RegExp(`Invoice no\\. ${invoice.InvoiceNumber}`));
  });

  it('several ids: EInvoices.zip with one file each; the command is listed for invoices with lines that are not void', async () => {
    const [mixed, note] = [await read(world.mixed), await read(world.creditNote)];
    for (const [format, extension] of [
      ['UBL', 'xml'],
      ['FACTURX', 'pdf'],
    ]) {
      const zip = await exportOf(t, [world.mixed, world.creditNote], format);
      assert.equal(zip.name, 'EInvoices.zip');
      assert.match(zip.type, /^application\/zip/);
      assert.deepEqual(Object.keys(unzipped(zip.bytes)).sort(), [
        `CreditNote-${note.InvoiceNumber}.${extension}`,
        `Invoice-${mixed.InvoiceNumber}.${extension}`,
      ]);
    }
    const listed = async (id: number) =>
      ((await t.get(`${INVOICES}/commands?id=${id}`)).body as Array<{ Key: string }>).some((c) => c.Key === EXPORT);
    assert.equal(await listed(world.mixed), true);
    assert.equal(await listed(world.creditNote), true);
    const posted = await create(t, INVOICES, {
      BusinessId: world.business,
      CoworkerId: world.customer,
      CurrencyId: await currencyId(t, 'EUR'),
      TotalAmount: 10,
    });
    assert.equal(await listed(posted), false);
    const all = (await t.get(`${INVOICES}/commands`)).body as Array<{ Key: string; RequiresParameters: Array<{ Name: string }> }>;
    assert.deepEqual(
      all.find((c) => c.Key === EXPORT)?.RequiresParameters.map((p) => p.Name),
      ['Format'],
    );
  });

  it('writes nothing: no history, no event, no UpdatedOn; CoworkerInvoice-Read is enough, none is a 401', async () => {
    const before = await read(world.mixed);
    const history = await tableRows(t, 'change_log');
    const events = await tableRows(t, 'webhook_delivery');
    await exportOf(t, [world.mixed], 'UBL');
    await exportOf(t, [world.mixed], 'FACTURX');
    assert.deepEqual(await read(world.mixed), before);
    assert.equal((await tableRows(t, 'change_log')).length, history.length);
    assert.equal((await tableRows(t, 'webhook_delivery')).length, events.length);
    await createUser(t, {
      Email: 'reader@example.com',
      Password: 'a-long-password-9',
      Roles: ['CoworkerInvoice-Read', 'CoworkerInvoice-List'],
      Businesses: [world.business],
    });
    const reader = basicAuth('reader@example.com', 'a-long-password-9');
    assert.equal(ok(await run([world.mixed], [{ Name: 'Format', Value: 'UBL' }], reader)).Value, null);
    await createUser(t, {
      Email: 'lister@example.com',
      Password: 'a-long-password-9',
      Roles: ['CoworkerInvoice-List'],
      Businesses: [world.business],
    });
    assert.equal(
      (await run([world.mixed], [{ Name: 'Format', Value: 'UBL' }], basicAuth('lister@example.com', 'a-long-password-9'))).status,
      401,
    );
    assert.equal((await t.post(`${INVOICES}/runcommand`, { Key: EXPORT, Ids: [world.mixed] }, { auth: '' })).status, 401);
  });

  describe('refusals: HTTP 200, WasSuccessful false, Status 400, a Message naming the field and the record, nothing made', () => {
    const refused = async (ids: number[], format: unknown, message: RegExp) => {
      const state = await Promise.all(STATE_TABLES.map((table) => tableRows(t, table)));
      const res = await run(ids, format === undefined ? [] : [{ Name: 'Format', Value: format }]);
      assert.equal(res.status, 200);
      assert.equal(res.body.WasSuccessful, false, JSON.stringify(res.body));
      assert.equal(res.body.Status, 400);
      assert.match(res.body.Message, message);
      assert.deepEqual(await Promise.all(STATE_TABLES.map((table) => tableRows(t, table))), state);
    };
    const customerOf = (body: Record<string, unknown>) => createCoworker(t, world.business, body);
    const billedWith = async (customer: number, taxRate: number | null) => {
      const product = await createProduct(t, world.business, {
        Name: 'Thing',
        Price: 10,
        CurrencyId: await currencyId(t, 'EUR'),
        ...(taxRate ? { TaxRateId: taxRate } : {}),
      });
      await create(t, '/api/billing/coworkerproducts', { CoworkerId: customer, ProductId: product, SaleDate: '2025-03-02' });
      return ok(
        await t.post('/api/spaces/coworkers/runcommand', {
          Key: 'COWORKER_BILL_RUN',
          Ids: [customer],
          Parameters: [{ Name: 'Until', Value: '2025-03-31' }],
        }),
      ).Value[0].Id as number;
    };

    it('Format missing or unknown, naming Format', async () => {
      await refused([world.mixed], undefined, /^Format: /);
      await refused([world.mixed], 'PDF', /^Format: "PDF"/);
    });

    it('a void invoice, an invoice without lines (BR-16); one refused id refuses all', async () => {
      const customer = await customerOf({ FullName: 'Void Customer', CountryId: 1 });
      const voided = await billedWith(customer, world.rates.standard);
      ok(await t.post(`${INVOICES}/runcommand`, { Key: 'VOID_INVOICE', Ids: [voided] }));
      const number = (await read(voided)).InvoiceNumber;
      await refused([world.mixed, voided], 'UBL', new RegExp(`^Void: Invoice ${number} is void`));
      const posted = await create(t, INVOICES, {
        BusinessId: world.business,
        CoworkerId: world.customer,
        CurrencyId: await currencyId(t, 'EUR'),
        TotalAmount: 10,
      });
      await refused([posted], 'CII', new RegExp(`^Lines: Invoice ${(await read(posted)).InvoiceNumber} has no lines`));
      await refused([world.mixed, world.mixed + 100_000], 'UBL', /does not exist/);
    });

    it('a line without a tax rate or whose tax rate has no VatCategoryCode; O mixed with another category', async () => {
      const customer = await customerOf({ FullName: 'Untaxed Customer', CountryId: 1, TaxIDNumber: 'FR40303265045' });
      const untaxed = await billedWith(customer, null);
      await refused(
        [untaxed],
        'UBL',
        new RegExp(`^VatCategoryCode: line 1 of Invoice ${(await read(untaxed)).InvoiceNumber} has no tax rate`),
      );
      const bare = await create(t, '/api/sys/taxrates', { BusinessId: world.business, Name: 'Old rate', Rate: 7 });
      const uncategorised = await billedWith(customer, bare);
      await refused(
        [uncategorised],
        'FACTURX',
        new RegExp(`^VatCategoryCode: line 1 of Invoice .* has TaxRate ${bare}, which has no VatCategoryCode`),
      );
      const outside = await create(t, '/api/sys/taxrates', {
        BusinessId: world.business,
        Name: 'Outside',
        Rate: 0,
        VatCategoryCode: 'O',
        VatExemptionReasonText: 'Not subject',
      });
      const desk = await createProduct(t, world.business, {
        Name: 'Desk',
        Price: 10,
        CurrencyId: await currencyId(t, 'EUR'),
        TaxRateId: world.rates.standard,
      });
      await create(t, '/api/billing/coworkerproducts', { CoworkerId: customer, ProductId: desk, SaleDate: '2025-03-02' });
      const mixed = await billedWith(customer, outside);
      await refused(
        [mixed],
        'UBL',
        /^VatCategoryCode: Invoice .* mixes lines outside the scope of VAT \(O\) with lines of category S \(BR-O-11\)/,
      );
    });

    it('a business without TaxIDNumber; outside the scope without LegalRegistrationNumber', async () => {
      const eur = await currencyId(t, 'EUR');
      const business = await create(t, '/api/sys/businesses', { Name: 'No VAT Ltd', CurrencyId: eur, CountryId: 1 });
      const standard = await create(t, '/api/sys/taxrates', { BusinessId: business, Name: 'S', Rate: 20, VatCategoryCode: 'S' });
      const outside = await create(t, '/api/sys/taxrates', {
        BusinessId: business,
        Name: 'O',
        Rate: 0,
        VatCategoryCode: 'O',
        VatExemptionReasonCode: 'VATEX-EU-O',
      });
      const bill = async (rate: number) => {
        const customer = await createCoworker(t, business, { FullName: 'Buyer', CountryId: 1 });
        const product = await createProduct(t, business, { Name: 'Desk', Price: 10, CurrencyId: eur, TaxRateId: rate });
        await create(t, '/api/billing/coworkerproducts', { CoworkerId: customer, ProductId: product, SaleDate: '2025-03-02' });
        return ok(
          await t.post('/api/spaces/coworkers/runcommand', {
            Key: 'COWORKER_BILL_RUN',
            Ids: [customer],
            Parameters: [{ Name: 'Until', Value: '2025-03-31' }],
          }),
        ).Value[0].Id as number;
      };
      await refused([await bill(standard)], 'UBL', new RegExp(`^TaxIDNumber: Business ${business} \\(No VAT Ltd\\) has no TaxIDNumber`));
      await refused(
        [await bill(outside)],
        'UBL',
        new RegExp(`^LegalRegistrationNumber: Business ${business} \\(No VAT Ltd\\) has no LegalRegistrationNumber`),
      );
    });

    it('AE without BillToTaxIDNumber; a BillToTaxIDNumber without a country prefix; no BillToCountryId', async () => {
      const reverse = await billedWith(await customerOf({ FullName: 'No VAT Id', CountryId: 1 }), world.rates.reverse);
      await refused(
        [reverse],
        'UBL',
        new RegExp(
          `^BillToTaxIDNumber: Invoice ${(await read(reverse)).InvoiceNumber} has lines of VAT category AE but no BillToTaxIDNumber`,
        ),
      );
      const unprefixed = await billedWith(
        await customerOf({ FullName: 'Bad VAT Id', CountryId: 1, TaxIDNumber: '123456789' }),
        world.rates.standard,
      );
      await refused([unprefixed], 'CII', /^BillToTaxIDNumber: 123456789 of Invoice .* does not start with a country prefix \(BR-CO-09\)/);
      const countryless = await billedWith(await customerOf({ FullName: 'Nowhere' }), world.rates.standard);
      await refused(
        [countryless],
        'UBL',
        new RegExp(`^BillToCountryId: Invoice ${(await read(countryless)).InvoiceNumber} has no BillToCountryId`),
      );
    });
  });

  // EINVOICE_EXAMPLES=folder writes the documents of the partly paid invoice and its credit note there: the examples of docs/einvoices.md.
  it(
    'writes the examples of docs/einvoices.md when asked',
    { skip: !process.env.EINVOICE_EXAMPLES && 'EINVOICE_EXAMPLES is not set' },
    async () => {
      const folder = process.env.EINVOICE_EXAMPLES!;
      mkdirSync(folder, { recursive: true });
      for (const [id, format, extension] of [
        [world.mixed, 'UBL', 'ubl.xml'],
        [world.mixed, 'CII', 'cii.xml'],
        [world.mixed, 'FACTURX', 'pdf'],
        [world.creditNote, 'UBL', 'credit-note.ubl.xml'],
      ] as const) {
        writeFileSync(join(folder, `example.${extension}`), (await exportOf(t, [id], format)).bytes);
      }
    },
  );

  it('the lines of a 20-line invoice each say their own quantity and amount', async () => {
    const lines = await linesOf(t, world.standard);
    const doc = parse((await exportOf(t, [world.standard], 'UBL')).bytes).Invoice;
    assert.deepEqual(
      all(doc, 'cac:InvoiceLine').map((line) => [text(line, 'cbc:InvoicedQuantity'), text(line, 'cbc:LineExtensionAmount')]),
      lines.map((line: any) => [String(line.Quantity), cents(line.SubTotal)]),
    );
  });
});
