import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { RecordValidationException } from '../../common/errors.js';
import type { Principal } from '../../common/principal.js';
import type { WireRecord } from '../../common/record-definition.js';
import { RecordService, type SaveContext } from '../../common/record.service.js';
import { toWire } from '../../common/wire-values.js';
import { Coworker } from '../../spaces/coworkers/coworker.entity.js';
import { Tariff } from '../tariffs/tariff.entity.js';
import type { CoworkerContract } from './coworker-contract.entity.js';
import type { CoworkerContractDto } from './dto/coworker-contract.dto.js';

/**
 * Customers' contracts (README "Contracts"). Every write, through this API or when a customer is
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
export class CoworkerContractsService extends RecordService<CoworkerContract> {
  protected override async beforeSave(context: SaveContext): Promise<void> {
    const dto = context.dto as unknown as CoworkerContractDto;
    const existing = context.existing;
    if (existing && dto.Price === null) delete context.values.Price;
    await this.applyRules(context.manager, context.actor, context.values, existing, dto.Price === null);
  }

  /**
   * Starts a contract inside a running transaction (a customer created or updated with a TariffId):
   * the same rules as a contract created through the API. Returns its Id.
   */
  async start(manager: EntityManager, actor: Principal | undefined, contract: { CoworkerId: number; TariffId: number; StartDate: Date; IsPrimaryContract: boolean }): Promise<number> {
    const values: Record<string, unknown> = { ...contract };
    await this.applyRules(manager, actor, values, null, false);
    const now = new Date();
    const written = { ...values, UniqueId: randomUUID(), CreatedOn: now, UpdatedOn: now, UpdatedBy: actor?.email ?? null, IsNew: true };
    const id = await this.insertRow(written, manager);
    await this.recordChange(manager, actor, 'Create', id, null, undefined, written);
    return id;
  }

  /** Ends a customer's contracts active at `at` (all of them, or only `onlyId`) at that moment. */
  async cancelActive(manager: EntityManager, actor: Principal | undefined, coworkerId: number, at: Date, onlyId?: number): Promise<void> {
    const q = (name: string) => this.db.id(name);
    const when = this.db.dateParam(at);
    const active = await this.db.query<{ Id: number }>(
      `SELECT ${q('Id')} AS ${q('Id')} FROM ${this.db.tableOf(this.definition.entity)} ` +
      `WHERE ${q('CoworkerId')} = ? AND ${q('StartDate')} <= ? AND (${q('CancellationDate')} IS NULL OR ${q('CancellationDate')} > ?)` +
      (onlyId === undefined ? '' : ` AND ${q('Id')} = ?`),
      [coworkerId, when, when, ...(onlyId === undefined ? [] : [onlyId])],
      manager,
    );
    await this.changeOthers(manager, actor, active, { CancellationDate: at });
  }

  /**
   * Contracts a domain rule changes besides the one written (a cancellation, the main-contract mark):
   * each is updated like any record, so its version moves and the change is recorded and delivered.
   */
  private async changeOthers(manager: EntityManager, actor: Principal | undefined, rows: ReadonlyArray<{ Id: number }>, values: Record<string, unknown>): Promise<void> {
    for (const { Id } of rows) {
      const before = await this.get(Number(Id), undefined, manager);
      await this.updateRow(Number(Id), { ...values, UpdatedOn: new Date(), UpdatedBy: actor?.email ?? null, IsNew: false }, manager);
      await this.recordChange(manager, actor, 'Update', Number(Id), before);
    }
  }

  private async applyRules(manager: EntityManager, actor: Principal | undefined, values: Record<string, unknown>, existing: WireRecord | null, priceCleared: boolean): Promise<void> {
    const q = (name: string) => this.db.id(name);
    const coworkerId = Number(values.CoworkerId ?? existing?.CoworkerId);
    const tariffId = Number(values.TariffId ?? existing?.TariffId);
    // The customer's row is the lock that serialises its contracts' main-contract mark.
    const [customer] = await this.db.query(
      `SELECT ${q('BusinessId')} AS b FROM ${this.db.tableOf(Coworker)} WHERE ${q('Id')} = ?${this.db.isMySql ? ' FOR UPDATE' : ''}`,
      [coworkerId],
      manager,
    );
    if (!customer) throw RecordValidationException.field('CoworkerId', `Coworker ${coworkerId} does not exist`, coworkerId);
    const [tariff] = await this.db.query(`SELECT ${q('BusinessId')} AS b, ${q('Price')} AS price FROM ${this.db.tableOf(Tariff)} WHERE ${q('Id')} = ?`, [tariffId], manager);
    if (!tariff) throw RecordValidationException.field('TariffId', `Tariff ${tariffId} does not exist`, tariffId);
    if (Number(tariff.b) !== Number(customer.b)) {
      throw RecordValidationException.field('TariffId', `Tariff ${tariffId} is not a tariff of Business ${customer.b}, the business of Coworker ${coworkerId}.`, tariffId);
    }
    const start = (values.StartDate ?? (existing ? new Date(String(existing.StartDate)) : null)) as Date | null;
    const cancellation = values.CancellationDate !== undefined ? (values.CancellationDate as Date | null) : existing?.CancellationDate ? new Date(String(existing.CancellationDate)) : null;
    if (start && cancellation && cancellation.getTime() < start.getTime()) {
      throw RecordValidationException.field('CancellationDate', 'CancellationDate must not be before StartDate.', values.CancellationDate ?? existing?.CancellationDate);
    }
    if (!existing || priceCleared) values.Price ??= toWire('money', tariff.price);

    const table = this.db.tableOf(this.definition.entity);
    const ownId = existing ? Number(existing.Id) : 0;
    if (!existing && values.IsPrimaryContract !== true) {
      const [main] = await this.db.query(`SELECT 1 AS x FROM ${table} WHERE ${q('CoworkerId')} = ? AND ${q('IsPrimaryContract')} = 1 LIMIT 1`, [coworkerId], manager);
      if (!main) values.IsPrimaryContract = true;
    }
    if (values.IsPrimaryContract === true) {
      const marked = await this.db.query<{ Id: number }>(
        `SELECT ${q('Id')} AS ${q('Id')} FROM ${table} WHERE ${q('CoworkerId')} = ? AND ${q('IsPrimaryContract')} = 1 AND ${q('Id')} <> ?`, [coworkerId, ownId], manager,
      );
      await this.changeOthers(manager, actor, marked, { IsPrimaryContract: false });
    }
  }
}
