import { DataSource } from 'typeorm';
import { isLongTextColumn, MYSQL_LONG_TEXT_TYPE } from '../records/columns.js';

/**
 * The service's TypeORM data source: a DataSource whose entity metadata says what the migrations
 * made on each database. Long-text columns (`LongTextColumn`) are MEDIUMTEXT on MySQL/MariaDB, where
 * TEXT holds only 65,535 bytes (docs/api.md §1: 65,535 characters of any script), and TEXT on SQLite,
 * which knows no MEDIUMTEXT. Use it wherever a data source is made from `buildDataSourceOptions`.
 */
export class ServiceDataSource extends DataSource {
  protected override async buildMetadatas(): Promise<void> {
    await super.buildMetadatas();
    if (this.options.type !== 'mysql' && this.options.type !== 'mariadb') return;
    for (const entity of this.entityMetadatas) {
      for (const column of entity.columns) {
        const prototype = typeof column.target === 'function' ? column.target.prototype : undefined;
        if (prototype && isLongTextColumn(prototype, column.propertyName)) column.type = MYSQL_LONG_TEXT_TYPE;
      }
    }
  }
}
