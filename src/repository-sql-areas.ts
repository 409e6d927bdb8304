import { CalendarEventsRepository } from './content/calendar-events/calendar-events.repository.js';
import { EventWaitingAttendeesRepository } from './content/event-waiting-attendees/event-waiting-attendees.repository.js';
import { CoworkersRepository } from './customers/coworkers/coworkers.repository.js';
import { customerBusiness } from './customers/customer-rows.repository.js';
import { TeamsRepository } from './customers/teams/teams.repository.js';
import { UsersRepository } from './customers/users/users.repository.js';
import { WebhookDeliveriesRepository } from './integrations/webhooks/webhook-deliveries.repository.js';
import { WebhooksRepository } from './integrations/webhooks/webhooks.repository.js';
import { Product } from './billing/products/product.entity.js';
import { TaxRatesRepository } from './kernel/tax-rates/tax-rates.repository.js';
import { PublicEventsRepository } from './public/events/public-events.repository.js';
import type { NamedStatement } from './repository-sql.js';
import { BookingProductsRepository } from './spaces/booking-products/booking-products.repository.js';
import { BookingsRepository } from './spaces/bookings/bookings.repository.js';
import { CheckinsRepository } from './spaces/checkins/checkins.repository.js';
import { CoworkerDeliveriesRepository } from './spaces/coworker-deliveries/coworker-deliveries.repository.js';
import { ResourcesRepository } from './spaces/resources/resources.repository.js';

const at = new Date(0);

/** The statements of the areas' repositories (src/kernel, customers, spaces, content, public, integrations), by method. */
export const AREA_STATEMENTS: NamedStatement[] = [
  {
    name: 'TaxRatesRepository.isNamedIn',
    run: (db, tx) => new TaxRatesRepository(db).isNamedIn(Product, ['TaxRateId', 'ReducedTaxRateId', 'ExemptTaxRateId'], 1, tx),
  },
  { name: 'customerBusiness', run: (db, tx) => customerBusiness(db, 1, tx) },
  { name: 'UsersRepository.emailTaken', run: (db, tx) => new UsersRepository(db).emailTaken('a@example.com', 1, tx) },
  { name: 'UsersRepository.hasTwoFactorSecret', run: (db, tx) => new UsersRepository(db).hasTwoFactorSecret(1, tx) },
  { name: 'UsersRepository.customerHasLogin', run: (db, tx) => new UsersRepository(db).customerHasLogin(1, tx) },
  { name: 'TeamsRepository.customersOfBusiness', run: (db, tx) => new TeamsRepository(db).customersOfBusiness(1, [2, 3], tx) },
  { name: 'CoworkersRepository.leaveTeamsOutside', run: (db, tx) => new CoworkersRepository(db).leaveTeamsOutside(1, 1, tx) },
  { name: 'ResourcesRepository.currencyOfBusiness', run: (db, tx) => new ResourcesRepository(db).currencyOfBusiness(1, tx) },
  { name: 'ResourcesRepository.hasBookings', run: (db, tx) => new ResourcesRepository(db).hasBookings(1, tx) },
  { name: 'BookingsRepository.dueForBilling', run: (db, tx) => new BookingsRepository(db).dueForBilling([1, 2], at, tx) },
  { name: 'BookingsRepository.resource', run: (db, tx) => new BookingsRepository(db).resource(1, tx) },
  { name: 'BookingsRepository.customer', run: (db, tx) => new BookingsRepository(db).customer(1, tx) },
  { name: 'BookingsRepository.overlapping', run: (db, tx) => new BookingsRepository(db).overlapping(1, at, at, 2, tx) },
  { name: 'BookingsRepository.resourceBusiness', run: (db, tx) => new BookingsRepository(db).resourceBusiness(1, tx) },
  { name: 'BookingsRepository.productIds', run: (db, tx) => new BookingsRepository(db).productIds(1, tx) },
  {
    name: 'BookingProductsRepository.customerOfBooking',
    run: (db, tx) => new BookingProductsRepository(db).customerOfBooking(1, tx),
  },
  { name: 'CheckinsRepository.openCheckin', run: (db, tx) => new CheckinsRepository(db).openCheckin('1/1', 2, tx) },
  { name: 'CheckinsRepository.passOfTheDay', run: (db, tx) => new CheckinsRepository(db).passOfTheDay(1, 1, at, tx) },
  { name: 'CheckinsRepository.recordsPass', run: (db, tx) => new CheckinsRepository(db).recordsPass('u', 2, tx) },
  {
    name: 'CoworkerDeliveriesRepository.collect',
    run: (db, tx) => new CoworkerDeliveriesRepository(db).collect(1, at, null, tx),
  },
  {
    name: 'EventWaitingAttendeesRepository.businessOfEvent',
    run: (db, tx) => new EventWaitingAttendeesRepository(db).businessOfEvent(1, tx),
  },
  { name: 'CalendarEventsRepository.hasWaitingAttendee', run: (db, tx) => new CalendarEventsRepository(db).hasWaitingAttendee(1, tx) },
  {
    name: 'PublicEventsRepository.page (upcoming, a search and a business)',
    rows: [{ n: 0 }],
    run: (db) => new PublicEventsRepository(db).page({ pastEvents: false, page: 1, size: 20, search: 'yoga', businessId: 1 }, at),
  },
  {
    name: 'PublicEventsRepository.page (past events)',
    rows: [{ n: 0 }],
    run: (db) => new PublicEventsRepository(db).page({ pastEvents: true, page: 1, size: 20, search: null, businessId: null }, at),
  },
  { name: 'PublicEventsRepository.findPublished', run: (db) => new PublicEventsRepository(db).findPublished(1, at) },
  { name: 'PublicEventsRepository.customerContact', run: (db) => new PublicEventsRepository(db).customerContact(1) },
  { name: 'WebhooksRepository.activeHooks', run: (db, tx) => new WebhooksRepository(db).activeHooks(1, [1, 2], tx) },
  { name: 'WebhooksRepository.activeActions', run: (db) => new WebhooksRepository(db).activeActions() },
  { name: 'WebhooksRepository.secret', run: (db) => new WebhooksRepository(db).secret(1) },
  { name: 'WebhookDeliveriesRepository.backlog', run: (db) => new WebhookDeliveriesRepository(db).backlog(at) },
  {
    name: 'WebhookDeliveriesRepository.insert (two deliveries)',
    run: (db, tx) =>
      new WebhookDeliveriesRepository(db).insert(
        [
          { webHookId: 1, action: 1, entity: 'Product', recordId: 1, record: {} },
          { webHookId: 2, action: 1, entity: 'Product', recordId: 1, record: {} },
        ],
        tx,
      ),
  },
  { name: 'WebhookDeliveriesRepository.list', rows: [{ n: 0 }], run: (db) => new WebhookDeliveriesRepository(db).list(1, {}) },
  { name: 'WebhookDeliveriesRepository.redeliver', rows: [{ Id: 1 }], run: (db) => new WebhookDeliveriesRepository(db).redeliver(1, 1) },
  {
    name: 'WebhookDeliveriesRepository.dropForOtherBusinesses',
    run: (db, tx) => new WebhookDeliveriesRepository(db).dropForOtherBusinesses(1, 1, tx),
  },
  { name: 'WebhookDeliveriesRepository.prune', run: (db) => new WebhookDeliveriesRepository(db).prune(at) },
];
