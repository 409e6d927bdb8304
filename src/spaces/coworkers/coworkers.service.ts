import { Inject, Injectable } from '@nestjs/common';
import { mainActiveContract } from '../../billing/coworker-contracts/active-contracts.js';
import { CoworkerContract } from '../../billing/coworker-contracts/coworker-contract.entity.js';
import { CoworkerContractsService } from '../../billing/coworker-contracts/coworker-contracts.service.js';
import { Tariff } from '../../billing/tariffs/tariff.entity.js';
import { Database } from '../../common/database.js';
import { RecordValidationException } from '../../common/errors.js';
import type { RecordDefinition } from '../../common/record-definition.js';
import { RECORD_DEFINITION, RecordService, type SaveContext } from '../../common/record.service.js';
import { UsersService } from '../../sys/users/users.service.js';
import { TEAM_MEMBERS } from '../teams/teams.module.js';
import { Team } from '../teams/team.entity.js';
import type { Coworker } from './coworker.entity.js';
import type { CoworkerDto } from './dto/coworker.dto.js';

/**
 * Customers; `CreateUser` + `Password` also create the customer's login, and `TariffId` starts or
 * changes its main contract (see CoworkerDto.TariffId), in the same transaction.
 */
@Injectable()
export class CoworkersService extends RecordService<Coworker> {
  constructor(
    @Inject(RECORD_DEFINITION) definition: RecordDefinition<Coworker>,
    db: Database,
    private readonly users: UsersService,
    private readonly contracts: CoworkerContractsService,
  ) {
    super(definition, db);
  }

  protected override async beforeSave(context: SaveContext): Promise<void> {
    const dto = context.dto as CoworkerDto;
    await this.refuseMoveWithContracts(context);
    if (dto.CreateUser && !dto.Password && !(context.existing && (await this.loginOf(Number(context.existing.Id), context)))) {
      throw RecordValidationException.field('Password', 'Password is required to create the customer login.', dto.Password ?? null);
    }
  }

  protected override async afterSave(id: number, context: SaveContext): Promise<void> {
    const dto = context.dto as CoworkerDto;
    await this.followTariff(id, dto.TariffId, context);
    const previousBusiness = context.existing?.BusinessId;
    if (previousBusiness !== undefined && context.values.BusinessId !== undefined && Number(previousBusiness) !== Number(context.values.BusinessId)) {
      // A customer that moves to another business leaves the teams of the one it left.
      await this.db.query(
        `DELETE FROM ${this.db.id(TEAM_MEMBERS.table)} WHERE ${this.db.id(TEAM_MEMBERS.column)} = ? AND ${this.db.id(TEAM_MEMBERS.on)} IN ` +
        `(SELECT ${this.db.id('Id')} FROM ${this.db.tableOf(Team)} WHERE ${this.db.id('BusinessId')} <> ?)`,
        [id, context.values.BusinessId],
        context.manager,
      );
    }
    if (!dto.CreateUser || !dto.Password || (await this.loginOf(id, context))) return;
    await this.users.createCustomerLogin(context.manager, { id, email: dto.Email, fullName: dto.FullName, password: dto.Password }, context.actor);
  }

  /**
   * TariffId as the platform's older clients use it, kept true to what they read back: on create it
   * starts the first contract; on update a different tariff replaces the main active contract (ended
   * now, a new main one from now), null ends every active contract now, and the same tariff (a record
   * PUT back as read) changes nothing.
   */
  private async followTariff(id: number, tariffId: number | null | undefined, context: SaveContext): Promise<void> {
    if (tariffId === undefined) return;
    // To the whole second, as datetime columns keep it: the new contract is active at once.
    const now = new Date(Math.floor(Date.now() / 1000) * 1000);
    const main = context.existing ? await mainActiveContract(this.db, id, now, context.manager) : null;
    if (tariffId === null) {
      if (main) await this.contracts.cancelActive(context.manager, context.actor, id, now);
      return;
    }
    if (main?.TariffId === tariffId) return;
    if (main) await this.contracts.cancelActive(context.manager, context.actor, id, now, main.Id);
    await this.contracts.start(context.manager, context.actor, { CoworkerId: id, TariffId: tariffId, StartDate: now, IsPrimaryContract: true });
  }

  /**
   * A customer's contracts are on tariffs of its business: it may move to another business only once
   * none of them runs on (is not cancelled as of now), or they would bill it from the wrong one.
   */
  private async refuseMoveWithContracts(context: SaveContext): Promise<void> {
    const target = context.values.BusinessId;
    if (!context.existing || target === undefined || Number(target) === Number(context.existing.BusinessId)) return;
    const q = (name: string) => this.db.id(name);
    const now = this.db.dateParam(new Date());
    const [running] = await this.db.query(
      `SELECT COUNT(*) AS n FROM ${this.db.tableOf(CoworkerContract)} c JOIN ${this.db.tableOf(Tariff)} t ON t.${q('Id')} = c.${q('TariffId')} ` +
      `WHERE c.${q('CoworkerId')} = ? AND t.${q('BusinessId')} <> ? AND (c.${q('CancellationDate')} IS NULL OR c.${q('CancellationDate')} > ?)`,
      [context.existing.Id, target, now],
      context.manager,
    );
    if (Number(running.n) > 0) {
      throw RecordValidationException.field('BusinessId', `Coworker ${context.existing.Id} has ${running.n} contract(s) on tariffs of Business ${context.existing.BusinessId} that are not cancelled: cancel them before moving the customer to Business ${target}.`, target);
    }
  }

  private async loginOf(coworkerId: number, context: SaveContext): Promise<boolean> {
    const [row] = await this.db.query(`SELECT 1 AS x FROM ${this.db.id('user')} WHERE ${this.db.id('CoworkerId')} = ?`, [coworkerId], context.manager);
    return Boolean(row);
  }
}
