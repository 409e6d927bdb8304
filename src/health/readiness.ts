import { Injectable, type OnModuleDestroy } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { pendingMigrations } from '../database/migration-runner.js';

/**
 * What /health/ready knows besides the database: whether the instance is shutting down (from the first
 * shutdown hook on, so a load balancer takes it out while it drains), and whether the schema has every
 * migration this build knows (once it has, that is remembered: migrations are not taken back while
 * the instance runs).
 */
@Injectable()
export class Readiness implements OnModuleDestroy {
  private stopping = false;
  private schemaCurrent = false;

  constructor(private readonly dataSource: DataSource) {}

  onModuleDestroy(): void {
    this.stopping = true;
  }

  get shuttingDown(): boolean {
    return this.stopping;
  }

  /** The migrations still to apply (none: the schema is current). */
  async pendingMigrations(): Promise<string[]> {
    if (this.schemaCurrent) return [];
    const pending = await pendingMigrations(this.dataSource);
    this.schemaCurrent = !pending.length;
    return pending;
  }
}
