// The TypeORM CLI's data source (npm run migration:run | migration:revert | migration:generate).
// Built by the same function as the application's, from the same validated environment.
import 'reflect-metadata';
import { DataSource } from 'typeorm';
import { validateEnvironment } from './src/config/configuration.js';
import { buildDataSourceOptions } from './src/database/data-source-options.js';

export default new DataSource(buildDataSourceOptions(validateEnvironment(process.env)));
