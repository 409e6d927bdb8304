import { Inject, Injectable } from '@nestjs/common';
import { prehashPassword } from '../../auth/passwords.js';
import { RecordValidationException } from '../../records/errors.js';
import { UsersRules } from '../users/users.rules.js';
import { CoworkersRepository } from './coworkers.repository.js';
import { CustomerPlans } from './customer-plans.js';
import type { CoworkerDto } from './dto/coworker.dto.js';
import type { RecordRules, SaveContext } from '../../records/record-rules.js';

/**
 * Customers; `CreateUser` + `Password` also create the customer's login, and `TariffId` starts or
 * changes its main contract (see CoworkerDto.TariffId), in the same transaction.
 */
@Injectable()
export class CoworkersRules implements RecordRules<CoworkerDto> {
  @Inject(UsersRules) private readonly users: UsersRules;
  @Inject(CustomerPlans) private readonly contracts: CustomerPlans;
  @Inject(CoworkersRepository) private readonly coworkersRepository: CoworkersRepository;

  /** The login's password hash is made before the transaction (UsersRules.createCustomerLogin uses it). */
  async prepareSave(dto: CoworkerDto): Promise<void> {
    const { CreateUser, Password } = dto;
    if (CreateUser && Password) await prehashPassword(dto, Password);
  }

  async beforeSave(context: SaveContext<CoworkerDto>): Promise<void> {
    const dto = context.dto;
    await this.refuseMoveWithContracts(context);
    if (dto.CreateUser && !dto.Password && !(context.existing && (await this.loginOf(Number(context.existing.Id), context)))) {
      throw RecordValidationException.field('Password', 'Password is required to create the customer login.', dto.Password ?? null);
    }
  }

  async afterSave(id: number, context: SaveContext<CoworkerDto>): Promise<void> {
    const dto = context.dto;
    await this.followTariff(id, dto.TariffId, context);
    const previousBusiness = context.existing?.BusinessId;
    if (
      previousBusiness !== undefined &&
      context.values.BusinessId !== undefined &&
      Number(previousBusiness) !== Number(context.values.BusinessId)
    ) {
      // A customer that moves to another business leaves the teams of the one it left.
      await this.coworkersRepository.leaveTeamsOutside(id, Number(context.values.BusinessId), context.tx);
    }
    if (!dto.CreateUser || !dto.Password || (await this.loginOf(id, context))) return;
    // Absent from a partial update, the email and name are the stored ones (docs/api.md §1.2).
    const email = dto.Email ?? String(context.existing?.Email);
    const fullName = dto.FullName ?? String(context.existing?.FullName);
    await this.users.createCustomerLogin(context.tx, { id, email, fullName, password: dto.Password, body: dto }, context.actor);
  }

  /**
   * TariffId as the platform's older clients use it, kept true to what they read back: on create it
   * starts the first contract; on update a different tariff replaces the main active contract (ended
   * now, a new main one from now), null ends every active contract now, and the same tariff (a record
   * PUT back as read) changes nothing.
   */
  private async followTariff(id: number, tariffId: number | null | undefined, context: SaveContext<CoworkerDto>): Promise<void> {
    if (tariffId === undefined) return;
    // To the whole second, as datetime columns keep it: the new contract is active at once.
    const now = new Date(Math.floor(Date.now() / 1000) * 1000);
    const main = context.existing ? await this.contracts.mainActive(id, now, context.tx) : null;
    if (tariffId === null) {
      if (main) await this.contracts.cancelActive(context.tx, context.actor, id, now);
      return;
    }
    if (main?.TariffId === tariffId) return;
    if (main) await this.contracts.cancelActive(context.tx, context.actor, id, now, main.Id);
    await this.contracts.start(context.tx, context.actor, {
      CoworkerId: id,
      TariffId: tariffId,
      StartDate: now,
      IsPrimaryContract: true,
    });
  }

  /**
   * A customer's contracts are on tariffs of its business: it may move to another business only once
   * none of them runs on (is not cancelled as of now), or they would bill it from the wrong one.
   */
  private async refuseMoveWithContracts(context: SaveContext<CoworkerDto>): Promise<void> {
    const target = context.values.BusinessId;
    if (!context.existing || target === undefined || Number(target) === Number(context.existing.BusinessId)) return;
    const running = await this.contracts.countRunningOutside(Number(context.existing.Id), Number(target), new Date(), context.tx);
    if (running > 0) {
      throw RecordValidationException.field(
        'BusinessId',
        `Coworker ${context.existing.Id} has ${running} contract(s) on tariffs of Business ${context.existing.BusinessId} that are not cancelled: cancel them before moving the customer to Business ${target}.`,
        target,
      );
    }
  }

  private loginOf(coworkerId: number, context: SaveContext<CoworkerDto>): Promise<boolean> {
    return this.users.hasLogin(coworkerId, context.tx);
  }
}
