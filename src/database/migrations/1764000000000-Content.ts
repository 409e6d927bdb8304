import type { MigrationInterface, QueryRunner } from 'typeorm';
import { column, createRecordTable } from '../migration-helpers.js';

/** Surveys and their runs, calendar events, their attendees and their waiting lists. */
export class Content1764000000000 implements MigrationInterface {
  async up(runner: QueryRunner): Promise<void> {
    await createRecordTable(
      runner,
      'survey',
      [
        column.int('BusinessId', { nullable: false }),
        column.text('Name', { nullable: false }),
        column.longText('Description'),
        column.bool('Active'),
      ],
      { foreignKeys: [{ column: 'BusinessId', references: 'business' }], indexes: ['Name'] },
    );
    await createRecordTable(
      runner,
      'surveyrun',
      [
        column.int('CoworkerId', { nullable: false }),
        column.int('SurveyId', { nullable: false }),
        column.dateTime('MailingDate'),
        column.bool('Submitted'),
      ],
      {
        foreignKeys: [
          { column: 'CoworkerId', references: 'coworker' },
          { column: 'SurveyId', references: 'survey' },
        ],
        indexes: ['MailingDate'],
      },
    );
    await createRecordTable(
      runner,
      'calendarevent',
      [
        column.int('BusinessId', { nullable: false }),
        column.text('Name', { nullable: false }),
        column.dateTime('StartDate', { nullable: false }),
        column.dateTime('EndDate', { nullable: false }),
        column.longText('ShortDescription'),
        column.longText('LongDescription'),
        column.text('Location'),
        column.int('Allocation'),
        column.bool('EnableWaitList'),
        column.dateTime('PublishDate'),
        column.bool('OnlyForMembers'),
        column.bool('OnlyForContacts'),
      ],
      {
        foreignKeys: [{ column: 'BusinessId', references: 'business' }],
        // The public list filters on EndDate and PublishDate and orders by StartDate.
        indexes: ['Name', 'StartDate', 'EndDate', 'PublishDate'],
      },
    );
    await createRecordTable(
      runner,
      'eventattendee',
      [
        column.int('CalendarEventId', { nullable: false }),
        column.text('FullName', { nullable: false }),
        column.text('Email', { nullable: false }),
        column.int('CoworkerId'),
        column.bool('CheckedIn'),
      ],
      {
        foreignKeys: [
          { column: 'CalendarEventId', references: 'calendarevent' },
          { column: 'CoworkerId', references: 'coworker' },
        ],
        indexes: ['FullName', 'Email'],
      },
    );
    await createRecordTable(
      runner,
      'eventwaitingattendee',
      [
        column.int('BusinessId', { nullable: false }),
        column.int('CalendarEventId', { nullable: false }),
        column.text('FullName', { nullable: false }),
        column.text('Email', { nullable: false }),
        column.int('CoworkerId'),
      ],
      {
        foreignKeys: [
          { column: 'BusinessId', references: 'business' },
          { column: 'CalendarEventId', references: 'calendarevent' },
          { column: 'CoworkerId', references: 'coworker' },
        ],
        indexes: ['FullName', 'Email'],
        // A customer is on an event's waiting list at most once, however many join at the same moment.
        unique: [['CalendarEventId', 'CoworkerId']],
      },
    );
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.dropTable('eventwaitingattendee');
    await runner.dropTable('eventattendee');
    await runner.dropTable('calendarevent');
    await runner.dropTable('surveyrun');
    await runner.dropTable('survey');
  }
}
