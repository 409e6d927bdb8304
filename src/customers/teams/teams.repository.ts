import { Injectable } from '@nestjs/common';
import { In, type EntityManager } from 'typeorm';
import { Coworker } from '../coworker.entity.js';

/** The reads of teams beyond the machinery's own (TypeORM's find: no hot path). */
@Injectable()
export class TeamsRepository {
  /** Which of the customers `ids` belong to the business, read inside the team's transaction. */
  async customersOfBusiness(businessId: number, ids: readonly number[], manager: EntityManager): Promise<Set<number>> {
    const customers = await manager.find(Coworker, { select: { Id: true }, where: { BusinessId: businessId, Id: In([...ids]) } });
    return new Set(customers.map((customer) => Number(customer.Id)));
  }
}
