import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createSurvey } from './support/content-fixtures.js';
import { createBusiness, createCoworker } from './support/fixtures.js';
import { startApp, type TestApp } from './support/test-app.js';

describe('surveys and survey runs', () => {
  let t: TestApp;
  let business: number;
  let coworker: number;
  let survey: number;

  before(async () => {
    t = await startApp();
    business = await createBusiness(t);
    coworker = await createCoworker(t, business, { FullName: 'Mary Somerville' });
    survey = await createSurvey(t, business, { Name: 'Quarterly pulse' });
  });
  after(() => t.close());

  /** Sends a request that must be refused, and shows the table did not change. */
  const refused = async (table: string, send: () => Promise<{ status: number; body: any }>, status = 400) => {
    const before = await t.rows(table);
    const res = await send();
    assert.equal(res.status, status, JSON.stringify(res.body));
    assert.deepEqual(await t.rows(table), before);
    return res;
  };

  describe('surveys', () => {
    it('creates with every field and reads it back', async () => {
      const input = { BusinessId: business, Name: 'Welcome survey', Description: 'How was your first week?\n'.repeat(20), Active: true, SystemId: 'srv-1' };
      const res = await t.post('/api/content/surveys', input);
      assert.equal(res.status, 200);
      assert.equal(res.body.Message, 'Survey was successfully created.');
      const read = (await t.get(`/api/content/surveys/${res.body.Value.Id}`)).body;
      for (const [key, value] of Object.entries(input)) assert.deepEqual(read[key], value, key);
      assert.equal(read.ToStringText, 'Welcome survey');
      assert.equal(read.IsNew, true);
    });

    it('Active defaults to false', async () => {
      const id = await createSurvey(t, business);
      assert.equal((await t.get(`/api/content/surveys/${id}`)).body.Active, false);
    });

    it('missing required fields, an unknown business and over-long text: 400 naming each, nothing written', async () => {
      const missing = await refused('survey', () => t.post('/api/content/surveys', { Description: 'x' }));
      assert.deepEqual(missing.body.Errors.map((e: any) => e.PropertyName).sort(), ['BusinessId', 'Name']);
      const unknown = await refused('survey', () => t.post('/api/content/surveys', { BusinessId: 424242, Name: 'x' }));
      assert.equal(unknown.body.Message, 'BusinessId: Business 424242 does not exist');
      const long = await refused('survey', () => t.post('/api/content/surveys', { BusinessId: business, Name: 'x'.repeat(256), Description: 'y'.repeat(65_536) }));
      assert.deepEqual(long.body.Errors.map((e: any) => e.PropertyName).sort(), ['Description', 'Name']);
    });

    it('update keeps absent optional fields and clears explicit null; delete; 404s', async () => {
      const id = await createSurvey(t, business, { Description: 'Keep', Active: true, SystemId: 'clear me' });
      const res = await t.put('/api/content/surveys', { Id: id, BusinessId: business, Name: 'Renamed', SystemId: null });
      assert.equal(res.status, 200);
      assert.equal(res.body.Message, 'Survey was successfully updated.');
      const read = (await t.get(`/api/content/surveys/${id}`)).body;
      assert.deepEqual([read.Name, read.Description, read.Active, read.SystemId, read.IsNew], ['Renamed', 'Keep', true, null, false]);
      const removed = await t.delete(`/api/content/surveys/${id}`);
      assert.equal(removed.body.Message, 'Survey was successfully deleted.');
      for (const res404 of [
        await t.get(`/api/content/surveys/${id}`),
        await t.put('/api/content/surveys', { Id: id, BusinessId: business, Name: 'x' }),
        await t.delete(`/api/content/surveys/${id}`),
      ]) {
        assert.equal(res404.status, 404);
        assert.equal(res404.body, 'Not found');
      }
    });
  });

  describe('survey runs', () => {
    it('creates with every field and reads it back with SurveyName and CoworkerFullName', async () => {
      const input = { CoworkerId: coworker, SurveyId: survey, MailingDate: '2025-03-01T09:30:00Z', Submitted: true, SystemId: 'run-1' };
      const res = await t.post('/api/content/surveyruns', input);
      assert.equal(res.status, 200);
      assert.equal(res.body.Message, 'SurveyRun was successfully created.');
      const read = (await t.get(`/api/content/surveyruns/${res.body.Value.Id}`)).body;
      for (const [key, value] of Object.entries(input)) assert.deepEqual(read[key], value, key);
      assert.equal(read.SurveyName, 'Quarterly pulse');
      assert.equal(read.CoworkerFullName, 'Mary Somerville');
      assert.equal(read.ToStringText, 'Quarterly pulse - Mary Somerville');
      assert.equal(read.LocalizationDetails, null);
    });

    it('accepts the input date forms of the contract and defaults Submitted to false', async () => {
      const id = (await t.post('/api/content/surveyruns', { CoworkerId: coworker, SurveyId: survey, MailingDate: '2025-03-01T09:30' })).body.Value.Id;
      const read = (await t.get(`/api/content/surveyruns/${id}`)).body;
      assert.equal(read.MailingDate, '2025-03-01T09:30:00Z');
      assert.equal(read.Submitted, false);
      await t.put('/api/content/surveyruns', { Id: id, CoworkerId: coworker, SurveyId: survey, MailingDate: '2025-03-01T11:30:00+02:00' });
      assert.equal((await t.get(`/api/content/surveyruns/${id}`)).body.MailingDate, '2025-03-01T09:30:00Z');
    });

    it('a missing CoworkerId or SurveyId: 400 naming each, on create and on update', async () => {
      const create = await refused('surveyrun', () => t.post('/api/content/surveyruns', { Submitted: true }));
      assert.deepEqual(create.body.Errors.map((e: any) => e.PropertyName).sort(), ['CoworkerId', 'SurveyId']);
      assert.equal(create.body.WasSuccessful, false);
      assert.equal(create.body.Value, null);
      assert.match(create.body.Message, /^(CoworkerId|SurveyId): (CoworkerId|SurveyId) is required\.$/);
      const id = (await t.post('/api/content/surveyruns', { CoworkerId: coworker, SurveyId: survey })).body.Value.Id;
      const update = await refused('surveyrun', () => t.put('/api/content/surveyruns', { Id: id, SurveyId: survey }));
      assert.deepEqual(update.body.Errors.map((e: any) => e.PropertyName), ['CoworkerId']);
      const noId = await refused('surveyrun', () => t.put('/api/content/surveyruns', { CoworkerId: coworker, SurveyId: survey }));
      assert.equal(noId.body.Errors[0].PropertyName, 'Id');
    });

    it('an unknown CoworkerId or SurveyId: 400 naming it', async () => {
      const survey42 = await refused('surveyrun', () => t.post('/api/content/surveyruns', { CoworkerId: coworker, SurveyId: 42 }));
      assert.equal(survey42.body.Message, 'SurveyId: Survey 42 does not exist');
      assert.deepEqual(survey42.body.Errors, [{ PropertyName: 'SurveyId', AttemptedValue: 42, Message: 'Survey 42 does not exist' }]);
      const coworker42 = await refused('surveyrun', () => t.post('/api/content/surveyruns', { CoworkerId: 4242, SurveyId: survey }));
      assert.equal(coworker42.body.Message, 'CoworkerId: Coworker 4242 does not exist');
      const id = (await t.post('/api/content/surveyruns', { CoworkerId: coworker, SurveyId: survey })).body.Value.Id;
      const update = await refused('surveyrun', () => t.put(`/api/content/surveyruns/${id}`, { CoworkerId: coworker, SurveyId: 42 }));
      assert.equal(update.body.Message, 'SurveyId: Survey 42 does not exist');
      const wrongType = await refused('surveyrun', () => t.post('/api/content/surveyruns', { CoworkerId: 'me', SurveyId: survey, MailingDate: 'soon', Submitted: 'yes' }));
      assert.deepEqual(wrongType.body.Errors.map((e: any) => e.PropertyName).sort(), ['CoworkerId', 'MailingDate', 'Submitted']);
    });

    it('update (docs/api.md §9.6) keeps absent optional fields and clears explicit null', async () => {
      const other = await createSurvey(t, business, { Name: 'Exit survey' });
      const id = (await t.post('/api/content/surveyruns', { CoworkerId: coworker, SurveyId: survey, MailingDate: '2025-04-01T08:00:00Z', Submitted: true })).body.Value.Id;
      const keep = await t.put('/api/content/surveyruns', { Id: id, CoworkerId: coworker, SurveyId: other });
      assert.equal(keep.status, 200);
      assert.equal(keep.body.Message, 'SurveyRun was successfully updated.');
      assert.deepEqual(keep.body.Value, { Id: id });
      let read = (await t.get(`/api/content/surveyruns/${id}`)).body;
      assert.deepEqual([read.SurveyName, read.MailingDate, read.Submitted], ['Exit survey', '2025-04-01T08:00:00Z', true]);
      await t.put('/api/content/surveyruns', { Id: id, CoworkerId: coworker, SurveyId: other, MailingDate: null, Submitted: null });
      read = (await t.get(`/api/content/surveyruns/${id}`)).body;
      assert.deepEqual([read.MailingDate, read.Submitted], [null, false]);
    });

    it('lists by coworker (SurveyRun_Coworker) and by submitted flag', async () => {
      const someoneElse = await createCoworker(t, business, { FullName: 'Caroline Herschel' });
      const mine = (await t.post('/api/content/surveyruns', { CoworkerId: someoneElse, SurveyId: survey, Submitted: true })).body.Value.Id;
      const list = await t.get(`/api/content/surveyruns?SurveyRun_Coworker=${someoneElse}`);
      assert.deepEqual(list.body.Records.map((r: any) => r.Id), [mine]);
      const submitted = await t.get(`/api/content/surveyruns?SurveyRun_Coworker=${someoneElse}&SurveyRun_Submitted=false`);
      assert.equal(submitted.body.TotalItems, 0);
      const byName = await t.get('/api/content/surveyruns?SurveyRun_CoworkerFullName=herschel');
      assert.deepEqual(byName.body.Records.map((r: any) => r.Id), [mine]);
    });

    it('deletes; unknown ids are 404; a survey with runs cannot be deleted', async () => {
      const id = (await t.post('/api/content/surveyruns', { CoworkerId: coworker, SurveyId: survey })).body.Value.Id;
      const removed = await t.delete(`/api/content/surveyruns/${id}`);
      assert.equal(removed.status, 200);
      assert.equal(removed.body.Message, 'SurveyRun was successfully deleted.');
      for (const res of [
        await t.get(`/api/content/surveyruns/${id}`),
        await t.put('/api/content/surveyruns', { Id: id, CoworkerId: coworker, SurveyId: survey }),
        await t.delete(`/api/content/surveyruns/${id}`),
      ]) {
        assert.equal(res.status, 404);
        assert.equal(res.body, 'Not found');
      }
      const inUse = await refused('survey', () => t.delete(`/api/content/surveys/${survey}`));
      assert.match(inUse.body.Message, /cannot be deleted/);
    });
  });
});
