import { Inject, Injectable } from '@nestjs/common';
import type { FieldError } from '../../records/envelopes.js';
import { RecordValidationException, refusal } from '../../records/errors.js';
import { billedDeleteRefusal, hasBilledLines, refuseBilledChanges } from '../due-items/billed-items.js';
import { atMidnight, defaultBillingDay, utcDate } from '../due-items/periods.js';
import type { Principal } from '../../platform/principal.js';
import type { WireRecord } from '../../records/record-definition.js';
import { CoworkerContractsRepository, type MainContract } from './coworker-contracts.repository.js';
import type { CoworkerContractDto } from './dto/coworker-contract.dto.js';
import type { DeleteContext, RecordRules, SaveContext, SaveDecision } from '../../records/record-rules.js';
import { RecordTypes } from '../../records/record-types.js';
import type { RecordService } from '../../records/record.service.js';
import { coworkerContracts } from './coworker-contracts.definition.js';
import { Database } from '../../persistence/database.js';
import type { CustomerPlans } from '../../customers/coworkers/customer-plans.js';
import type { Tx } from '../../persistence/tx.js';

/**
 * Customers' contracts (docs/api.md §11.4). Every write, through this API or when a customer is
 * created or updated with a TariffId, goes through `applyRules` in its transaction:
 * - the tariff must be one of the customer's business (400 naming TariffId);
 * - CancellationDate may not lie before StartDate (400 naming CancellationDate);
 * - Price defaults to the tariff's price;
 * - one main contract per customer: a contract marked IsPrimaryContract takes the mark from the
 *   customer's other contracts, and a customer's first contract (none of its others marked) is its
 *   main one. The customer's row is locked first, so parallel writes for one customer take turns and
 *   always leave exactly one main contract.
 */
@Injectable()
export class CoworkerContractsRules implements RecordRules<CoworkerContractDto>, CustomerPlans {
  @Inject(Database) private readonly db: Database;
  @Inject(RecordTypes) private readonly types: RecordTypes;
  @Inject(CoworkerContractsRepository) private readonly contractsRepository: CoworkerContractsRepository;

  /** This type's RecordService, for the records the rules write besides a request's own. */
  private get records(): RecordService {
    return this.types.records(coworkerContracts);
  }

  /** The values to write: the body's under the contract rules (a cleared Price is the tariff's again). */
  async beforeSave(context: SaveContext<CoworkerContractDto>): Promise<SaveDecision> {
    const { dto } = context;
    const existing = context.existing;
    const { Price: _cleared, ...withoutPrice } = context.values;
    const given = existing && dto.Price === null ? withoutPrice : context.values;
    return { values: await this.applyRules(context.tx, context.actor, given, existing, dto.Price === null) };
  }

  /**
   * Starts a contract inside a running transaction (a customer created or updated with a TariffId):
   * the same rules as a contract created through the API. Returns its Id.
   */
  async start(
    tx: Tx,
    actor: Principal | undefined,
    contract: { CoworkerId: number; TariffId: number; StartDate: Date; IsPrimaryContract: boolean },
  ): Promise<number> {
    const values = await this.applyRules(tx, actor, contract, null, false);
    return (await this.records.createRecorded(tx, actor, values)).id;
  }

  /** The main active contract of a customer at `at` (docs/api.md §3.1), read inside `tx`'s transaction; null when none. */
  mainActive(coworkerId: number, at: Date, tx?: Tx): Promise<MainContract | null> {
    return this.contractsRepository.mainActive(coworkerId, at, tx);
  }

  /** How many of a customer's contracts run on (are not cancelled at `at`) on tariffs of another business than `businessId`. */
  countRunningOutside(coworkerId: number, businessId: number, at: Date, tx: Tx): Promise<number> {
    return this.contractsRepository.countRunningOutside(coworkerId, businessId, at, tx);
  }

  /** Ends a customer's contracts active at `at` (all of them, or only `onlyId`) at that moment. */
  async cancelActive(tx: Tx, actor: Principal | undefined, coworkerId: number, at: Date, onlyId?: number): Promise<void> {
    await this.changeOthers(tx, actor, await this.contractsRepository.activeIds(coworkerId, at, tx, onlyId), {
      CancellationDate: at,
    });
  }

  /**
   * Contracts a domain rule changes besides the one written (a cancellation, the main-contract mark):
   * each is updated like any record, so its version moves and the change is recorded and delivered.
   */
  private async changeOthers(tx: Tx, actor: Principal | undefined, ids: readonly number[], values: Record<string, unknown>): Promise<void> {
    for (const id of ids) {
      const before = await this.records.get(id, undefined, tx);
      const changes = { ...values };
      // A cancellation may leave no period to bill: the next one (RenewalDate) goes with it.
      if (
        changes.CancellationDate instanceof Date &&
        before.RenewalDate &&
        !utcDate(changes.CancellationDate).isAfter(utcDate(String(before.RenewalDate)))
      )
        changes.RenewalDate = null;
      await this.records.updateRecorded(tx, actor, id, changes, { before });
    }
  }

  /**
   * Billing (docs/billing.md): BillingDay defaults to the start's day (28 at most); RenewalDate is the
   * next period to bill; a billed contract keeps what was billed (its customer, tariff, start, billing
   * day and pro-rating; no cancellation before what was billed).
   */
  private billingRules(values: Record<string, unknown>, existing: WireRecord | null, start: Date | null, cancellation: Date | null): void {
    if (!existing && start && (values.BillingDay === undefined || values.BillingDay === null))
      values.BillingDay = defaultBillingDay(utcDate(start));
    const billedUntil = existing?.InvoicedPeriod ? new Date(String(existing.InvoicedPeriod)) : null;
    if (existing && billedUntil) {
      const extra: FieldError[] = [];
      if (values.CancellationDate instanceof Date && utcDate(values.CancellationDate).isBefore(utcDate(billedUntil))) {
        extra.push({
          PropertyName: 'CancellationDate',
          AttemptedValue: values.CancellationDate.toISOString(),
          Message: `The contract was billed up to ${billedUntil.toISOString().slice(0, 10)} (exclusive): it cannot be cancelled before that. Credit the invoice instead.`,
        });
      }
      refuseBilledChanges(
        'CoworkerContract',
        ['CoworkerId', 'TariffId', 'StartDate', 'BillingDay', 'ApplyProRating'],
        values,
        existing,
        extra,
      );
    }
    if (!start) return;
    const renewal = billedUntil ?? atMidnight(utcDate(start));
    values.RenewalDate = cancellation && !utcDate(cancellation).isAfter(utcDate(renewal)) ? null : renewal;
  }

  async beforeDelete(contract: WireRecord, { tx }: DeleteContext): Promise<void> {
    if (await hasBilledLines(this.db, 'CoworkerContractUniqueId', String(contract.UniqueId), tx))
      throw refusal(billedDeleteRefusal('CoworkerContract', contract.Id));
  }

  /** Checks a contract's values against the rules and returns them with the defaults the rules give. */
  private async applyRules(
    tx: Tx,
    actor: Principal | undefined,
    given: Readonly<Record<string, unknown>>,
    existing: WireRecord | null,
    priceCleared: boolean,
  ): Promise<Record<string, unknown>> {
    const values = { ...given };
    const coworkerId = Number(values.CoworkerId ?? existing?.CoworkerId);
    const tariffId = Number(values.TariffId ?? existing?.TariffId);
    // The customer's row is the lock that serialises its contracts' main-contract mark.
    const business = await this.contractsRepository.lockCustomerBusiness(coworkerId, tx);
    if (business === null) throw RecordValidationException.field('CoworkerId', `Coworker ${coworkerId} does not exist`, coworkerId);
    const tariff = await this.contractsRepository.tariffTerms(tariffId, tx);
    if (!tariff) throw RecordValidationException.field('TariffId', `Tariff ${tariffId} does not exist`, tariffId);
    if (tariff.BusinessId !== business) {
      throw RecordValidationException.field(
        'TariffId',
        `Tariff ${tariffId} is not a tariff of Business ${business}, the business of Coworker ${coworkerId}.`,
        tariffId,
      );
    }
    const start = (values.StartDate ?? (existing ? new Date(String(existing.StartDate)) : null)) as Date | null;
    const cancellation =
      values.CancellationDate !== undefined
        ? (values.CancellationDate as Date | null)
        : existing?.CancellationDate
          ? new Date(String(existing.CancellationDate))
          : null;
    if (start && cancellation && cancellation.getTime() < start.getTime()) {
      throw RecordValidationException.field(
        'CancellationDate',
        'CancellationDate must not be before StartDate.',
        values.CancellationDate ?? existing?.CancellationDate,
      );
    }
    if (!existing || priceCleared) values.Price ??= tariff.Price;
    this.billingRules(values, existing, start, cancellation);

    const ownId = existing ? Number(existing.Id) : 0;
    if (!existing && values.IsPrimaryContract !== true && !(await this.contractsRepository.markedMainIds(coworkerId, 0, tx)).length)
      values.IsPrimaryContract = true;
    if (values.IsPrimaryContract === true) {
      await this.changeOthers(tx, actor, await this.contractsRepository.markedMainIds(coworkerId, ownId, tx), {
        IsPrimaryContract: false,
      });
    }
    return values;
  }
}
