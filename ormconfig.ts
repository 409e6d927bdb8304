// The TypeORM CLI's data source (npm run migration:run | migration:revert | migration:generate).
// Built by the same function as the application's, from the same validated environment.
import 'reflect-metadata';
import { validateEnvironment } from './src/config/configuration.js';
import { buildDataSourceOptions } from './src/database/data-source-options.js';
import { ServiceDataSource } from './src/database/service-data-source.js';

export default new ServiceDataSource(buildDataSourceOptions(validateEnvironment(process.env)));
