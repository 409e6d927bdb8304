import { Global, Injectable, Module } from '@nestjs/common';
import type { AnyClass } from './columns.js';
import type { RecordDefinition } from './record-definition.js';
import type { RecordEvents } from './record-events.js';
import type { RecordService } from './record.service.js';

/** One record type as its module registers it. */
export interface RegisteredType {
  definition: RecordDefinition<any>;
  records: RecordService<any>;
  events: RecordEvents | null;
}

/**
 * Every record type of the application, registered by its own module (`RecordModule.forType`) when
 * the module is made: what enumerates the types (OpenAPI, refused deletes, the webhook outbox) reads
 * it here, so no list of types is kept anywhere else and no import registers one by its side effect.
 */
@Injectable()
export class RecordTypes {
  private readonly byName = new Map<string, RegisteredType>();
  private listed: readonly RecordDefinition<any>[] | null = null;

  register(type: RegisteredType): void {
    const { name } = type.definition;
    if (this.byName.has(name)) throw new Error(`Record type ${name} is registered twice`);
    this.byName.set(name, type);
    this.listed = null;
  }

  /**
   * Every registered definition, by name: an order that does not depend on the order Nest makes the
   * modules in (messages naming several types name them in it). One array until another type registers.
   */
  definitions(): readonly RecordDefinition<any>[] {
    return (this.listed ??= Object.freeze(
      [...this.byName.values()].map((type) => type.definition).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)),
    ));
  }

  /** The type named `name` (a definition's `name`); undefined when no module registered it. */
  find(name: string): RegisteredType | undefined {
    return this.byName.get(name);
  }

  /** The type whose records are rows of `entity`. */
  ofEntity(entity: AnyClass): RegisteredType | undefined {
    for (const type of this.byName.values()) if (type.definition.entity === entity) return type;
    return undefined;
  }

  /** The RecordService of a type (for rules that write records of their own type besides the request's). */
  records(definition: RecordDefinition<any>): RecordService<any> {
    const type = this.byName.get(definition.name);
    if (!type) throw new Error(`Record type ${definition.name} is not registered`);
    return type.records;
  }
}

/** The registry every record module registers into (global, like the change log). */
@Global()
@Module({ providers: [RecordTypes], exports: [RecordTypes] })
export class RecordTypesModule {}
