import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { createSurvey } from './support/content-fixtures.js';
import { createBusinesses, createCoworker } from './support/fixtures.js';
import { assertFields, createAndReadBack, errorNames, refused, unknownIdIsNotFound } from './support/record-checks.js';
import { appPerSuite } from './support/test-app.js';

describe('surveys and survey runs', () => {
  const t = appPerSuite();
  let business: number;
  let coworker: number;
  let survey: number;

  before(async () => {
    [business] = await createBusinesses(t, 'Canal Works');
    coworker = await createCoworker(t, business, { FullName: 'Mary Somerville' });
    survey = await createSurvey(t, business, { Name: 'Quarterly pulse' });
  });

  describe('surveys', () => {
    it('creates with every field and reads it back', async () => {
      const input = {
        BusinessId: business,
        Name: 'Welcome survey',
        Description: 'How was your first week?\n'.repeat(20),
        Active: true,
        SystemId: 'srv-1',
      };
      const read = await createAndReadBack(t, '/api/content/surveys', 'Survey', input);
      assert.equal(read.ToStringText, 'Welcome survey');
    });

    it('Active defaults to false', async () => {
      const id = await createSurvey(t, business);
      assert.equal((await t.get(`/api/content/surveys/${id}`)).body.Active, false);
    });

    it('missing required fields, an unknown business and over-long text: 400 naming each, nothing written', async () => {
      const missing = await refused(t, ['survey'], 400, () => t.post('/api/content/surveys', { Description: 'x' }));
      assert.deepEqual(errorNames(missing.body), ['BusinessId', 'Name']);
      const unknown = await refused(t, ['survey'], 400, () => t.post('/api/content/surveys', { BusinessId: 424242, Name: 'x' }));
      assert.equal(unknown.body.Message, 'BusinessId: Business 424242 does not exist');
      const long = await refused(t, ['survey'], 400, () =>
        t.post('/api/content/surveys', { BusinessId: business, Name: 'x'.repeat(256), Description: 'y'.repeat(65_536) }),
      );
      assert.deepEqual(errorNames(long.body), ['Description', 'Name']);
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
      await unknownIdIsNotFound(t, '/api/content/surveys', ['survey'], { BusinessId: business, Name: 'x' }, { id });
    });
  });

  describe('survey runs', () => {
    it('creates with every field and reads it back with SurveyName and CoworkerFullName', async () => {
      const input = { CoworkerId: coworker, SurveyId: survey, MailingDate: '2025-03-01T09:30:00Z', Submitted: true, SystemId: 'run-1' };
      const read = await createAndReadBack(t, '/api/content/surveyruns', 'SurveyRun', input);
      assertFields(read, {
        SurveyName: 'Quarterly pulse',
        CoworkerFullName: 'Mary Somerville',
        ToStringText: 'Quarterly pulse - Mary Somerville',
      });
    });

    it('accepts the input date forms of the contract and defaults Submitted to false', async () => {
      const id = (await t.post('/api/content/surveyruns', { CoworkerId: coworker, SurveyId: survey, MailingDate: '2025-03-01T09:30' })).body
        .Value.Id;
      const read = (await t.get(`/api/content/surveyruns/${id}`)).body;
      assert.equal(read.MailingDate, '2025-03-01T09:30:00Z');
      assert.equal(read.Submitted, false);
      await t.put('/api/content/surveyruns', { Id: id, CoworkerId: coworker, SurveyId: survey, MailingDate: '2025-03-01T11:30:00+02:00' });
      assert.equal((await t.get(`/api/content/surveyruns/${id}`)).body.MailingDate, '2025-03-01T09:30:00Z');
    });

    it('a missing CoworkerId or SurveyId: 400 naming each, on create and on update', async () => {
      const create = await refused(t, ['surveyrun'], 400, () => t.post('/api/content/surveyruns', { Submitted: true }));
      assert.deepEqual(errorNames(create.body), ['CoworkerId', 'SurveyId']);
      assert.equal(create.body.WasSuccessful, false);
      assert.equal(create.body.Value, null);
      assert.match(create.body.Message, /^(CoworkerId|SurveyId): (CoworkerId|SurveyId) is required\.$/);
      const id = (await t.post('/api/content/surveyruns', { CoworkerId: coworker, SurveyId: survey })).body.Value.Id;
      const update = await refused(t, ['surveyrun'], 400, () => t.put('/api/content/surveyruns', { Id: id, SurveyId: survey }));
      assert.deepEqual(
        update.body.Errors.map((e: any) => e.PropertyName),
        ['CoworkerId'],
      );
      const noId = await refused(t, ['surveyrun'], 400, () => t.put('/api/content/surveyruns', { CoworkerId: coworker, SurveyId: survey }));
      assert.equal(noId.body.Errors[0].PropertyName, 'Id');
    });

    it('an unknown CoworkerId or SurveyId: 400 naming it', async () => {
      const survey42 = await refused(t, ['surveyrun'], 400, () =>
        t.post('/api/content/surveyruns', { CoworkerId: coworker, SurveyId: 42 }),
      );
      assert.equal(survey42.body.Message, 'SurveyId: Survey 42 does not exist');
      assert.deepEqual(survey42.body.Errors, [{ PropertyName: 'SurveyId', AttemptedValue: 42, Message: 'Survey 42 does not exist' }]);
      const coworker42 = await refused(t, ['surveyrun'], 400, () =>
        t.post('/api/content/surveyruns', { CoworkerId: 4242, SurveyId: survey }),
      );
      assert.equal(coworker42.body.Message, 'CoworkerId: Coworker 4242 does not exist');
      const id = (await t.post('/api/content/surveyruns', { CoworkerId: coworker, SurveyId: survey })).body.Value.Id;
      const update = await refused(t, ['surveyrun'], 400, () =>
        t.put(`/api/content/surveyruns/${id}`, { CoworkerId: coworker, SurveyId: 42 }),
      );
      assert.equal(update.body.Message, 'SurveyId: Survey 42 does not exist');
      const wrongType = await refused(t, ['surveyrun'], 400, () =>
        t.post('/api/content/surveyruns', { CoworkerId: 'me', SurveyId: survey, MailingDate: 'soon', Submitted: 'yes' }),
      );
      assert.deepEqual(errorNames(wrongType.body), ['CoworkerId', 'MailingDate', 'Submitted']);
    });

    it('update (docs/api.md §9.6) keeps absent optional fields and clears explicit null', async () => {
      const other = await createSurvey(t, business, { Name: 'Exit survey' });
      const id = (
        await t.post('/api/content/surveyruns', {
          CoworkerId: coworker,
          SurveyId: survey,
          MailingDate: '2025-04-01T08:00:00Z',
          Submitted: true,
        })
      ).body.Value.Id;
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
      assert.deepEqual(
        list.body.Records.map((r: any) => r.Id),
        [mine],
      );
      const submitted = await t.get(`/api/content/surveyruns?SurveyRun_Coworker=${someoneElse}&SurveyRun_Submitted=false`);
      assert.equal(submitted.body.TotalItems, 0);
      const byName = await t.get('/api/content/surveyruns?SurveyRun_CoworkerFullName=herschel');
      assert.deepEqual(
        byName.body.Records.map((r: any) => r.Id),
        [mine],
      );
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
      const inUse = await refused(t, ['survey'], 400, () => t.delete(`/api/content/surveys/${survey}`));
      assert.match(inUse.body.Message, /cannot be deleted/);
    });
  });
});
