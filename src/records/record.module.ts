import { Inject, type ModuleMetadata, type Provider, type Type } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import type { RecordDefinition } from './record-definition.js';
import type { RecordEvents } from './record-events.js';
import type { RecordRules } from './record-rules.js';
import { RecordTypes } from './record-types.js';
import { RECORD_DEFINITION, RECORD_RULES, RecordService } from './record.service.js';

/** The token of a record type's RecordService, for other modules (`@InjectRecords(definition)`). */
export function recordsToken(definition: Pick<RecordDefinition<any>, 'name'>): string {
  return `RecordService:${definition.name}`;
}

/** Injects the RecordService of a record type (its module must be imported). */
export const InjectRecords = (definition: Pick<RecordDefinition<any>, 'name'>): PropertyDecorator & ParameterDecorator =>
  Inject(recordsToken(definition));

export interface RecordTypeOptions {
  definition: RecordDefinition<any>;
  /** The type's domain rules (`<type>.rules.ts`): an injectable implementing RecordRules. */
  rules?: Type<RecordRules<any, any>>;
  /**
   * The webhook actions its changes fire (`<type>.events.ts`): RecordEvents as data, or an injectable
   * implementing it when deciding needs the database.
   */
  events?: Type<RecordEvents> | RecordEvents;
  controllers?: Type<unknown>[];
  providers?: Provider[];
  imports?: ModuleMetadata['imports'];
  /** Providers other modules may use besides the type's RecordService and rules. */
  exports?: ModuleMetadata['exports'];
}

const REGISTERED = Symbol('RecordTypeRegistered');

/**
 * The module of one record type, made from its definition, rules and events (docs/architecture.md §2.5):
 * one RecordService for the type (by class inside the module, by
 * `recordsToken(definition)` for others), its rules and events, and its entry in the `RecordTypes`
 * registry. A record module is `@Module(RecordModule.forType({ definition, rules, events }))`.
 */
export const RecordModule = {
  forType(options: RecordTypeOptions): ModuleMetadata {
    const { definition, rules, events } = options;
    const token = recordsToken(definition);
    const eventsClass = typeof events === 'function' ? events : undefined;
    const providers: Provider[] = [
      { provide: RECORD_DEFINITION, useValue: definition },
      RecordService,
      { provide: token, useExisting: RecordService },
      {
        provide: REGISTERED,
        useFactory: (types: RecordTypes, records: RecordService<any>, made?: RecordEvents) =>
          types.register({ definition, records, events: made ?? (events as RecordEvents | undefined) ?? null }),
        inject: [RecordTypes, RecordService, ...(eventsClass ? [eventsClass] : [])],
      },
    ];
    if (rules) providers.push(rules, { provide: RECORD_RULES, useExisting: rules });
    if (eventsClass) providers.push(eventsClass);
    return {
      imports: [TypeOrmModule.forFeature([definition.entity]), ...(options.imports ?? [])],
      controllers: options.controllers ?? [],
      providers: [...providers, ...(options.providers ?? [])],
      exports: [token, ...(rules ? [rules] : []), ...(options.exports ?? [])],
    };
  },
};
