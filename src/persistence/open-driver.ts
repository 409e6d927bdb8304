import type { DataSource } from 'typeorm';
import type { DatabaseDriver } from './driver.js';
import { MySqlDriver } from './mysql/mysql-driver.js';
import { SqliteDriver } from './sqlite/sqlite-driver.js';

/** MySQL or MariaDB (TypeORM's two dialects over the same mysql2 driver). */
export const isMySqlFamily = (dataSource: DataSource): boolean =>
  dataSource.options.type === 'mysql' || dataSource.options.type === 'mariadb';

/** The driver of the data source's database, owning its connections from here on. */
export function openDriver(dataSource: DataSource): MySqlDriver | SqliteDriver {
  return isMySqlFamily(dataSource) ? new MySqlDriver(dataSource) : new SqliteDriver(dataSource);
}

export type { DatabaseDriver };
