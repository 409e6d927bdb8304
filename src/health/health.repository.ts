import { Injectable } from '@nestjs/common';
import { Database } from '../persistence/database.js';

/** The database probe of GET /health. */
@Injectable()
export class HealthRepository {
  constructor(private readonly db: Database) {}

  /** Resolves when the database answers a trivial query. */
  async ping(): Promise<void> {
    await this.db.query('SELECT 1 AS ok');
  }
}
