import { Inject, Injectable } from '@nestjs/common';
import { Database } from '../../common/database.js';
import { RecordValidationException } from '../../common/errors.js';
import type { RecordDefinition } from '../../common/record-definition.js';
import { RECORD_DEFINITION, RecordService, type SaveContext } from '../../common/record.service.js';
import { UsersService } from '../../sys/users/users.service.js';
import type { Coworker } from './coworker.entity.js';
import type { CoworkerDto } from './dto/coworker.dto.js';

/** Customers; `CreateUser` + `Password` also create the customer's login, in the same transaction. */
@Injectable()
export class CoworkersService extends RecordService<Coworker> {
  constructor(@Inject(RECORD_DEFINITION) definition: RecordDefinition<Coworker>, db: Database, private readonly users: UsersService) {
    super(definition, db);
  }

  protected override async beforeSave(context: SaveContext): Promise<void> {
    const dto = context.dto as CoworkerDto;
    if (dto.CreateUser && !dto.Password && !(context.existing && (await this.loginOf(Number(context.existing.Id), context)))) {
      throw RecordValidationException.field('Password', 'Password is required to create the customer login.', dto.Password ?? null);
    }
  }

  protected override async afterSave(id: number, context: SaveContext): Promise<void> {
    const dto = context.dto as CoworkerDto;
    if (!dto.CreateUser || !dto.Password || (await this.loginOf(id, context))) return;
    await this.users.createCustomerLogin(context.manager, { id, email: dto.Email, fullName: dto.FullName, password: dto.Password }, context.actor);
  }

  private async loginOf(coworkerId: number, context: SaveContext): Promise<boolean> {
    const [row] = await this.db.query(`SELECT 1 AS x FROM ${this.db.id('user')} WHERE ${this.db.id('CoworkerId')} = ?`, [coworkerId], context.manager);
    return Boolean(row);
  }
}
