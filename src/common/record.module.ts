import type { ModuleMetadata, Provider, Type } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import type { RecordDefinition } from './record-definition.js';
import { RECORD_DEFINITION, RecordService } from './record.service.js';

export interface RecordModuleOptions {
  /** A subclass of RecordService carrying the type's domain rules. */
  service?: Type<RecordService<any>>;
  /** Hand-written routes beside the record routes. */
  controllers?: Type<unknown>[];
  providers?: Provider[];
  imports?: ModuleMetadata['imports'];
  /** Providers other modules may use besides the service. */
  exports?: ModuleMetadata['exports'];
}

/**
 * The module metadata of a record type: its definition and its service, which other modules can
 * import by class; the record router (record-router.ts) serves its routes. A record module is `@Module(recordModule(definition))`.
 */
export function recordModule(definition: RecordDefinition<any>, options: RecordModuleOptions = {}): ModuleMetadata {
  const service = options.service ?? RecordService;
  const serviceProviders: Provider[] = service === RecordService
    ? [RecordService]
    : [service, { provide: RecordService, useExisting: service }];
  return {
    imports: [TypeOrmModule.forFeature([definition.entity]), ...(options.imports ?? [])],
    controllers: options.controllers ?? [],
    providers: [{ provide: RECORD_DEFINITION, useValue: definition }, ...serviceProviders, ...(options.providers ?? [])],
    exports: [service, ...(options.exports ?? [])],
  };
}
