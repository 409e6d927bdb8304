import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { createUser } from './support/auth.js';
import { createProduct } from './support/billing-fixtures.js';
import { countryId, create, createBusinesses, createCoworker, createTariff } from './support/fixtures.js';
import { eachRequiredFieldIsNamed, errorNames, refused } from './support/record-checks.js';
import { appPerSuite, basicAuth } from './support/test-app.js';

const CONTRACTS = '/api/billing/coworkercontracts';
const TEAMS = '/api/spaces/teams';
const COWORKERS = '/api/spaces/coworkers';
const CONTRACT_TABLES = ['coworkercontract', 'coworker'];

const daysFromNow = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 19) + 'Z';

describe("contracts, teams and the platform's customer fields", () => {
  const t = appPerSuite();
  let business: number;
  let otherBusiness: number;
  let tariff: number;
  let otherTariff: number;
  let foreignTariff: number;

  before(async () => {
    [business, otherBusiness] = await createBusinesses(t, 'Canal Works', 'Harbour Hub');
    tariff = await createTariff(t, business, { Name: 'Resident', Price: 250 });
    otherTariff = await createTariff(t, business, { Name: 'Flexi', Price: 90.5 });
    foreignTariff = await createTariff(t, otherBusiness, { Name: 'Harbour resident' });
  });

  const coworker = async (id: number) => (await t.get(`${COWORKERS}/${id}`)).body;
  const contract = async (id: number) => (await t.get(`${CONTRACTS}/${id}`)).body;
  const contractsOf = async (coworkerId: number) =>
    (await t.get(`${CONTRACTS}?CoworkerContract_Coworker=${coworkerId}&size=100`)).body.Records as any[];

  describe('CoworkerContract', () => {
    it('required fields are named; a tariff of another business is a 400 naming TariffId; nothing changes', async () => {
      const customer = await createCoworker(t, business);
      const body = () => ({ CoworkerId: customer, TariffId: tariff, StartDate: '2025-01-15T10:30:00Z' });
      await eachRequiredFieldIsNamed(t, CONTRACT_TABLES, ['CoworkerId', 'TariffId', 'StartDate'], body, (b) => t.post(CONTRACTS, b));
      const foreign = await refused(t, CONTRACT_TABLES, 400, () => t.post(CONTRACTS, { ...body(), TariffId: foreignTariff }));
      assert.deepEqual(errorNames(foreign.body), ['TariffId']);
      assert.match(foreign.body.Message, /^TariffId: Tariff \d+ is not a tariff of Business/);
      const missing = await refused(t, CONTRACT_TABLES, 400, () => t.post(CONTRACTS, { ...body(), TariffId: 987654 }));
      assert.equal(missing.body.Message, 'TariffId: Tariff 987654 does not exist');
      const backwards = await refused(t, CONTRACT_TABLES, 400, () =>
        t.post(CONTRACTS, { ...body(), CancellationDate: '2025-01-01T00:00:00Z' }),
      );
      assert.deepEqual(errorNames(backwards.body), ['CancellationDate']);
    });

    it("a started contract is active as of now: the tariff's price by default, the first is the main one, and the customer reads it", async () => {
      const customer = await createCoworker(t, business, { FullName: 'Grace Brewster Hopper' });
      const before = await coworker(customer);
      assert.equal(before.ActiveContract, false);
      assert.equal(before.CoworkerContractIds, null);
      assert.equal(before.TariffId, null);
      assert.equal(before.TariffName, null);

      const id = await create(t, CONTRACTS, { CoworkerId: customer, TariffId: tariff, StartDate: '2025-01-15T10:30', Notes: 'Desk 4' });
      const read = await contract(id);
      assert.equal(read.Price, 250);
      assert.equal(read.Active, true);
      assert.equal(read.IsPrimaryContract, true);
      assert.equal(read.StartDate, '2025-01-15T10:30:00Z');
      assert.equal(read.CancellationDate, null);
      assert.equal(read.TariffName, 'Resident');
      assert.equal(read.CoworkerFullName, 'Grace Brewster Hopper');
      assert.equal(read.ToStringText, 'Grace Brewster Hopper - Resident');

      const future = await create(t, CONTRACTS, { CoworkerId: customer, TariffId: otherTariff, StartDate: daysFromNow(10), Price: 80 });
      const upcoming = await contract(future);
      assert.equal(upcoming.Active, false, 'not started yet');
      assert.equal(upcoming.IsPrimaryContract, false, 'the customer already has a main contract');
      assert.equal(upcoming.Price, 80);

      const after = await coworker(customer);
      assert.equal(after.ActiveContract, true);
      assert.deepEqual(after.CoworkerContractIds, [id]);
      assert.equal(after.TariffId, tariff);
      assert.equal(after.TariffName, 'Resident');
      const byTariff = (await t.get(`${COWORKERS}?Coworker_Tariff=${tariff}&Coworker_FullName=Brewster`)).body;
      assert.deepEqual(
        byTariff.Records.map((c: any) => c.Id),
        [customer],
      );
      assert.equal((await t.get(`${COWORKERS}?Coworker_User=1&Coworker_FullName=Brewster`)).body.TotalItems, 0);

      const active = (await t.get(`${CONTRACTS}?CoworkerContract_Coworker=${customer}&CoworkerContract_Active=true`)).body;
      assert.deepEqual(
        active.Records.map((c: any) => c.Id),
        [id],
      );
      const sorted = (await t.get(`${CONTRACTS}?CoworkerContract_Coworker=${customer}&orderBy=Active&dir=desc`)).body;
      assert.deepEqual(
        sorted.Records.map((c: any) => c.Id),
        [id, future],
      );
    });

    it('cancellation: a contract cancelled in the past is no longer active; one cancelled in the future still is', async () => {
      const customer = await createCoworker(t, business);
      const id = await create(t, CONTRACTS, {
        CoworkerId: customer,
        TariffId: tariff,
        StartDate: '2025-01-01',
        CancellationDate: daysFromNow(5),
      });
      assert.equal((await contract(id)).Active, true);
      const stored = await contract(id);
      assert.equal((await t.put(CONTRACTS, { ...stored, CancellationDate: daysFromNow(-1) })).status, 200);
      assert.equal((await contract(id)).Active, false);
      const after = await coworker(customer);
      assert.equal(after.ActiveContract, false);
      assert.equal(after.CoworkerContractIds, null);
      assert.equal(after.TariffName, null);
      // A Price cleared on update is the tariff's again.
      assert.equal(
        (await t.put(`${CONTRACTS}/${id}`, { CoworkerId: customer, TariffId: otherTariff, StartDate: '2025-01-01', Price: null })).status,
        200,
      );
      assert.equal((await contract(id)).Price, 90.5);
    });

    it('one main contract per customer: marking another takes the mark, also when many are marked in parallel', async () => {
      const customer = await createCoworker(t, business);
      const first = await create(t, CONTRACTS, { CoworkerId: customer, TariffId: tariff, StartDate: '2025-01-01' });
      const second = await create(t, CONTRACTS, {
        CoworkerId: customer,
        TariffId: otherTariff,
        StartDate: '2025-02-01',
        IsPrimaryContract: true,
      });
      assert.equal((await contract(first)).IsPrimaryContract, false);
      assert.equal((await contract(second)).IsPrimaryContract, true);
      assert.equal((await coworker(customer)).TariffName, 'Flexi', "the main contract names the customer's tariff");
      assert.deepEqual((await coworker(customer)).CoworkerContractIds, [first, second]);

      const results = await Promise.all(
        Array.from({ length: 8 }, (_, i) =>
          t.post(CONTRACTS, {
            CoworkerId: customer,
            TariffId: i % 2 ? tariff : otherTariff,
            StartDate: '2025-03-01',
            IsPrimaryContract: true,
          }),
        ),
      );
      for (const res of results) assert.equal(res.status, 200, JSON.stringify(res.body));
      const all = await contractsOf(customer);
      assert.equal(all.length, 10);
      assert.equal(all.filter((c) => c.IsPrimaryContract).length, 1);
      // A new customer's first contracts made in parallel: still exactly one main one.
      const fresh = await createCoworker(t, business);
      await Promise.all(
        Array.from({ length: 6 }, () => t.post(CONTRACTS, { CoworkerId: fresh, TariffId: tariff, StartDate: '2025-03-01' })),
      );
      assert.equal((await contractsOf(fresh)).filter((c) => c.IsPrimaryContract).length, 1);
    });

    it('a customer or tariff with contracts cannot be deleted; deleting the contract is allowed', async () => {
      const customer = await createCoworker(t, business);
      const id = await create(t, CONTRACTS, { CoworkerId: customer, TariffId: otherTariff, StartDate: '2025-01-01' });
      const res = await refused(t, CONTRACT_TABLES, 400, () => t.delete(`${COWORKERS}/${customer}`));
      assert.match(res.body.Message, /CoworkerContract/);
      assert.equal((await t.delete(`${CONTRACTS}/${id}`)).status, 200);
      assert.equal((await t.delete(`${COWORKERS}/${customer}`)).status, 200);
    });
  });

  describe('restricted administrators', () => {
    it('see and write contracts and teams of their businesses only (401 otherwise, nothing written)', async () => {
      const ours = await createCoworker(t, business);
      const theirs = await createCoworker(t, otherBusiness);
      const ourContract = await create(t, CONTRACTS, { CoworkerId: ours, TariffId: tariff, StartDate: '2025-01-01' });
      const theirContract = await create(t, CONTRACTS, { CoworkerId: theirs, TariffId: foreignTariff, StartDate: '2025-01-01' });
      const theirTeam = await create(t, TEAMS, { BusinessId: otherBusiness, Name: 'Harbour crew', TeamMembers: [theirs] });
      const email = 'contracts.admin@example.com';
      await createUser(t, {
        Email: email,
        Password: 'correct horse battery',
        Businesses: [business],
        Roles: ['CoworkerContract-List', 'CoworkerContract-Read', 'CoworkerContract-Create', 'Team-List', 'Team-Read', 'Team-Create'],
      });
      const auth = basicAuth(email, 'correct horse battery');
      const listed = (await t.get(`${CONTRACTS}?size=1000`, { auth })).body.Records.map((c: any) => c.Id);
      assert.ok(listed.includes(ourContract) && !listed.includes(theirContract));
      assert.equal((await t.get(`${CONTRACTS}/${theirContract}`, { auth })).status, 401);
      assert.equal((await t.get(`${TEAMS}/${theirTeam}`, { auth })).status, 401);
      await refused(t, CONTRACT_TABLES, 401, () =>
        t.post(CONTRACTS, { CoworkerId: theirs, TariffId: foreignTariff, StartDate: '2025-01-01' }, { auth }),
      );
      await refused(t, ['team', 'team_member'], 401, () => t.post(TEAMS, { BusinessId: otherBusiness, Name: 'Not mine' }, { auth }));
      assert.equal((await t.post(CONTRACTS, { CoworkerId: ours, TariffId: tariff, StartDate: '2025-02-01' }, { auth })).status, 200);
    });
  });

  describe('TariffId on a customer', () => {
    it("create with TariffId starts its main contract now at the tariff's price; a tariff of another business is refused", async () => {
      const started = Date.now();
      const id = await createCoworker(t, business, { TariffId: tariff });
      const [only, ...rest] = await contractsOf(id);
      assert.deepEqual(rest, []);
      assert.equal(only.TariffId, tariff);
      assert.equal(only.Price, 250);
      assert.equal(only.IsPrimaryContract, true);
      assert.equal(only.Active, true);
      assert.ok(Math.abs(Date.parse(only.StartDate) - started) < 5000, only.StartDate);
      const read = await coworker(id);
      assert.equal(read.TariffId, tariff);
      assert.equal(read.ActiveContract, true);
      assert.deepEqual(read.CoworkerContractIds, [only.Id]);

      const res = await refused(t, CONTRACT_TABLES, 400, () =>
        t.post(COWORKERS, { BusinessId: business, FullName: 'X', Email: 'x@example.com', TariffId: foreignTariff }),
      );
      assert.deepEqual(errorNames(res.body), ['TariffId']);
    });

    it('update: the same tariff (a record PUT back) changes nothing; another replaces the main contract; null ends every active one', async () => {
      const id = await createCoworker(t, business, { TariffId: tariff });
      await refused(t, ['coworkercontract'], 200, async () => t.put(COWORKERS, await coworker(id)));

      assert.equal((await t.put(COWORKERS, { ...(await coworker(id)), TariffId: otherTariff })).status, 200);
      const [ended, current] = await contractsOf(id);
      assert.equal(ended.Active, false);
      assert.notEqual(ended.CancellationDate, null);
      assert.equal(current.TariffId, otherTariff);
      assert.equal(current.Active, true);
      assert.equal(current.IsPrimaryContract, true);
      assert.equal((await coworker(id)).TariffName, 'Flexi');

      const extra = await create(t, CONTRACTS, { CoworkerId: id, TariffId: tariff, StartDate: '2025-01-01' });
      assert.equal((await t.put(`${COWORKERS}/${id}`, { ...(await coworker(id)), TariffId: null })).status, 200);
      assert.deepEqual(
        (await contractsOf(id)).map((c) => c.Active),
        [false, false, false],
      );
      assert.equal((await contract(extra)).Active, false);
      const read = await coworker(id);
      assert.equal(read.ActiveContract, false);
      assert.equal(read.CoworkerContractIds, null);
      assert.equal(read.TariffId, null);
    });
  });

  it('a customer with contracts not cancelled cannot move to another business (400 naming BusinessId); once they end, it can', async () => {
    const id = await createCoworker(t, business, { TariffId: tariff });
    const res = await refused(t, CONTRACT_TABLES, 400, async () =>
      t.put(COWORKERS, { ...(await coworker(id)), BusinessId: otherBusiness }),
    );
    assert.deepEqual(errorNames(res.body), ['BusinessId']);
    assert.equal((await t.put(COWORKERS, { ...(await coworker(id)), TariffId: null })).status, 200);
    assert.equal((await t.put(COWORKERS, { ...(await coworker(id)), BusinessId: otherBusiness })).status, 200);
    assert.equal((await coworker(id)).BusinessId, otherBusiness);
  });

  describe('sales and credits follow active contracts', () => {
    it('OnlyForMembers needs an active contract, OnlyForContacts none; not-yet-started and cancelled contracts do not count', async () => {
      const membersOnly = await createProduct(t, business, { Name: 'Members lounge', OnlyForMembers: true });
      const contactsOnly = await createProduct(t, business, { Name: 'Trial day', OnlyForContacts: true });
      const customer = await createCoworker(t, business);
      const sell = (product: number) => t.post('/api/billing/coworkerproducts', { CoworkerId: customer, ProductId: product });
      const future = await create(t, CONTRACTS, { CoworkerId: customer, TariffId: tariff, StartDate: daysFromNow(3) });
      assert.equal((await refused(t, ['coworkerproduct'], 400, () => sell(membersOnly))).body.WasSuccessful, false);
      assert.equal((await sell(contactsOnly)).status, 200);

      const stored = await contract(future);
      assert.equal((await t.put(CONTRACTS, { ...stored, StartDate: daysFromNow(-3) })).status, 200);
      assert.equal((await sell(membersOnly)).status, 200);
      assert.match((await refused(t, ['coworkerproduct'], 400, () => sell(contactsOnly))).body.Message, /only for contacts/);

      assert.equal((await t.put(CONTRACTS, { ...(await contract(future)), CancellationDate: daysFromNow(-1) })).status, 200);
      assert.match((await refused(t, ['coworkerproduct'], 400, () => sell(membersOnly))).body.Message, /only for members/);
    });

    it("PricePlan credits expire at the next monthly renewal of the customer's main active contract", async () => {
      const bundle = await createProduct(t, business, { Name: 'Plan bundle' });
      await create(t, '/api/billing/productbookingcredits', {
        Name: 'plan hours',
        ProductId: bundle,
        Credit: 4,
        ExpirationType: 1,
        ExpiresIn: 1,
      });
      const customer = await createCoworker(t, business);
      // An older secondary contract and the main one, which started on the 10th at 09:00.
      await create(t, CONTRACTS, {
        CoworkerId: customer,
        TariffId: otherTariff,
        StartDate: '2023-12-05T00:00:00Z',
        IsPrimaryContract: false,
      });
      await create(t, CONTRACTS, {
        CoworkerId: customer,
        TariffId: tariff,
        StartDate: '2024-01-10T09:00:00Z',
        CancellationDate: '2099-01-01',
        IsPrimaryContract: true,
      });
      const sale = await create(t, '/api/billing/coworkerproducts', {
        CoworkerId: customer,
        ProductId: bundle,
        SaleDate: '2024-01-31T10:20:30Z',
      });
      const { UniqueId } = (await t.get(`/api/billing/coworkerproducts/${sale}`)).body;
      const [credit] = (await t.get(`/api/billing/coworkerbookingcredits?CoworkerBookingCredit_CoworkerProductUniqueId=${UniqueId}`)).body
        .Records;
      assert.equal(credit.ExpireDate, '2024-02-10T09:00:00Z');

      const contact = await createCoworker(t, business);
      const contactSale = await create(t, '/api/billing/coworkerproducts', {
        CoworkerId: contact,
        ProductId: bundle,
        SaleDate: '2024-01-31T10:20:30Z',
      });
      const contactUniqueId = (await t.get(`/api/billing/coworkerproducts/${contactSale}`)).body.UniqueId;
      const [none] = (await t.get(`/api/billing/coworkerbookingcredits?CoworkerBookingCredit_CoworkerProductUniqueId=${contactUniqueId}`))
        .body.Records;
      assert.equal(none.ExpireDate, null, 'no contract, no renewal');
    });
  });

  describe('Team', () => {
    it("members are customers of the team's business; Coworker.Teams reads the ids of its teams", async () => {
      const ada = await createCoworker(t, business);
      const bob = await createCoworker(t, business);
      const outsider = await createCoworker(t, otherBusiness);
      const tables = ['team', 'team_member'];
      await eachRequiredFieldIsNamed(
        t,
        tables,
        ['BusinessId', 'Name'],
        () => ({ BusinessId: business, Name: 'Design' }),
        (b) => t.post(TEAMS, b),
      );
      const foreign = await refused(t, tables, 400, () =>
        t.post(TEAMS, { BusinessId: business, Name: 'Design', TeamMembers: [ada, outsider] }),
      );
      assert.deepEqual(errorNames(foreign.body), ['TeamMembers']);
      assert.match(foreign.body.Message, new RegExp(`^TeamMembers: Coworker ${outsider} is not a customer of Business ${business}`));
      const unknown = await refused(t, tables, 400, () =>
        t.post(TEAMS, { BusinessId: business, Name: 'Design', TeamMembers: [ada, 987654] }),
      );
      assert.equal(unknown.body.Message, 'TeamMembers: Coworker 987654 does not exist');

      const design = await create(t, TEAMS, { BusinessId: business, Name: 'Design', Description: 'Makers', TeamMembers: [bob, ada, ada] });
      const ops = await create(t, TEAMS, { BusinessId: business, Name: 'Ops', TeamMembers: [ada] });
      const read = (await t.get(`${TEAMS}/${design}`)).body;
      assert.deepEqual(
        read.TeamMembers,
        [ada, bob].sort((a, b) => a - b),
      );
      assert.equal(read.BusinessName, 'Canal Works');
      assert.deepEqual((await coworker(ada)).Teams, [design, ops]);
      assert.deepEqual((await coworker(bob)).Teams, [design]);
      assert.deepEqual((await coworker(outsider)).Teams, []);

      // Moving the team to another business with its members kept: refused.
      const moved = await refused(t, tables, 400, () => t.put(TEAMS, { Id: design, BusinessId: otherBusiness, Name: 'Design' }));
      assert.deepEqual(errorNames(moved.body), ['TeamMembers']);
      assert.equal((await t.put(TEAMS, { Id: design, BusinessId: business, Name: 'Design', TeamMembers: [bob] })).status, 200);
      assert.deepEqual((await coworker(ada)).Teams, [ops]);
      // A customer who moves to another business leaves the teams of the one it left.
      assert.equal((await t.put(COWORKERS, { ...(await coworker(bob)), BusinessId: otherBusiness })).status, 200);
      assert.deepEqual((await t.get(`${TEAMS}/${design}`)).body.TeamMembers, []);
      assert.equal((await t.delete(`${TEAMS}/${ops}`)).status, 200);
      assert.deepEqual((await coworker(ada)).Teams, []);
    });
  });

  describe("the platform's customer fields", () => {
    it('read back as written, with the guessed names, UserId, Businesses and no contracts as null', async () => {
      const fields = {
        CoworkerType: 2,
        Salutation: 'Dr',
        CompanyName: 'Analytical Engines Ltd',
        BillingName: 'AE Accounts',
        BillingEmail: 'accounts@example.com',
        Address: '12 Canal St',
        City: 'Manchester',
        PostCode: 'M1 3HE',
        CountryId: await countryId(t, 'GB'),
        TaxIDNumber: 'GB123456789',
        MobilePhone: '+44 7700 900123',
        KeyFobNumber: '0004521987',
        AccessCardId: 'CARD-77',
        AccessPincode: '0451',
      };
      const id = await createCoworker(t, business, { FullName: 'Ada King Lovelace', ...fields });
      const read = await coworker(id);
      for (const [name, value] of Object.entries(fields)) assert.equal(read[name], value, name);
      assert.equal(read.GuessedFirstName, 'Ada King');
      assert.equal(read.GuessedLastName, 'Lovelace');
      assert.equal(read.UserId, null);
      assert.deepEqual(read.Teams, []);
      assert.equal(read.CoworkerContractIds, null);
      assert.equal(read.ActiveContract, false);
      assert.deepEqual(read.Businesses, [business]);
      for (const name of ['KeyFobNumber', 'AccessCardId']) {
        const found = (await t.get(`${COWORKERS}?Coworker_${name}=${encodeURIComponent(String(fields[name as keyof typeof fields]))}`))
          .body;
        assert.deepEqual(
          found.Records.map((c: any) => c.Id),
          [id],
          name,
        );
      }

      const single = await coworker(await createCoworker(t, business, { FullName: 'Cher' }));
      assert.deepEqual([single.GuessedFirstName, single.GuessedLastName], ['Cher', '']);

      const withLogin = await createCoworker(t, business, { FullName: 'Lin Login', CreateUser: true, Password: 'a long password' });
      const users = (await t.get(`/api/sys/users?User_Coworker=${withLogin}`)).body.Records;
      assert.equal(users.length, 1);
      assert.equal((await coworker(withLogin)).UserId, users[0].Id);

      assert.equal((await t.put(COWORKERS, { ...read, KeyFobNumber: null, Salutation: 'Prof' })).status, 200);
      const updated = await coworker(id);
      assert.equal(updated.KeyFobNumber, null);
      assert.equal(updated.Salutation, 'Prof');
      assert.equal(updated.AccessCardId, 'CARD-77');
    });

    it('AddedBusinesses or Businesses on create name the business when BusinessId is absent', async () => {
      const viaAdded = await create(t, COWORKERS, {
        AddedBusinesses: [otherBusiness, business],
        FullName: 'Ann Added',
        Email: 'ann@example.com',
      });
      assert.equal((await coworker(viaAdded)).BusinessId, otherBusiness);
      const viaBusinesses = await create(t, COWORKERS, {
        Businesses: [otherBusiness],
        FullName: 'Ben Businesses',
        Email: 'ben@example.com',
      });
      assert.deepEqual((await coworker(viaBusinesses)).Businesses, [otherBusiness]);
      const explicit = await create(t, COWORKERS, {
        BusinessId: business,
        AddedBusinesses: [otherBusiness],
        FullName: 'Eve Explicit',
        Email: 'eve@example.com',
      });
      assert.equal((await coworker(explicit)).BusinessId, business, 'BusinessId wins');

      const none = await refused(t, ['coworker'], 400, () =>
        t.post(COWORKERS, { AddedBusinesses: [], FullName: 'N', Email: 'n@example.com' }),
      );
      assert.deepEqual(errorNames(none.body), ['BusinessId']);
      const unknown = await refused(t, ['coworker'], 400, () =>
        t.post(COWORKERS, { AddedBusinesses: [987654], FullName: 'N', Email: 'n@example.com' }),
      );
      assert.ok(errorNames(unknown.body).includes('AddedBusinesses'), JSON.stringify(unknown.body));
      const bad = await refused(t, ['coworker'], 400, () =>
        t.post(COWORKERS, { AddedBusinesses: 'x', FullName: 'N', Email: 'n@example.com' }),
      );
      assert.deepEqual(errorNames(bad.body), ['AddedBusinesses', 'BusinessId']);
    });
  });
});
