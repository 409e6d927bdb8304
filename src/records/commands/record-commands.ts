import { Global, Injectable, Module, UnauthorizedException } from '@nestjs/common';
import { allows, type Permission } from '../../platform/access.js';
import { bulkTurn } from '../../platform/bulk-lane.js';
import { Database } from '../../persistence/database.js';
import { failureConfirmation, successConfirmation, type ActionConfirmation } from '../envelopes.js';
import { RecordNotFoundException, WireResponseException } from '../errors.js';
import type { Principal } from '../../platform/principal.js';
import type { RecordDefinition, WireRecord } from '../record-definition.js';
import type { WriteScope } from '../../persistence/write-scope.js';
import { fitsMoney, MAX_ID } from '../validation/fields.js';
import { parseDateTime } from '../wire-values.js';
import type { Tx } from '../../persistence/tx.js';

// The commands protocol of docs/billing.md, written once for every record type (docs/billing.md,
// "How a record type declares a command"). A record type whose definition says `commands: true` gets
// `GET /api/{path}/commands` and `POST /api/{path}/runcommand`; the commands themselves are declared
// with that definition, never a type's name, through DI by the modules that implement them
// (RecordCommands.register(definition, …) in onModuleInit).

/** How a parameter's value is read: typed JSON or, as the platform's clients send them, strings. */
export type CommandParameterType = 'Boolean' | 'Date' | 'DateTime' | 'Integer' | 'Decimal' | 'String';

export interface CommandParameter {
  Name: string;
  Type: CommandParameterType;
  /** A run without it is refused. */
  required?: boolean;
  /**
   * A family of parameters, one per record: `Name` followed by a record's id (`Amount1234`), given as
   * `parameters[Name]`, a map from id to value (docs/api.md §10.2).
   */
  perId?: boolean;
}

/**
 * What `run` returns when the answer carries more than a `Value`: a `RedirectURL` (a download made by
 * the command, docs/api.md §10.2), or a Message other than the usual one (a billing run that reached its
 * cap, docs/api.md §9.1).
 */
export class CommandResult {
  constructor(
    readonly value: unknown,
    readonly redirectUrl: string | null = null,
    readonly message: string | null = null,
  ) {}
}

/** What a command's `run` is given. */
export interface CommandContext {
  /** The ids of the request, in its order, without repeats. */
  ids: number[];
  /** The records of those ids as GET shows them, read in the command's transaction (or before, see `transaction`). */
  records: WireRecord[];
  /** The parameters by their declared Name, converted by their Type; absent ones are undefined. */
  parameters: Record<string, unknown>;
  actor: Principal | undefined;
  /** The one transaction the whole command runs in; undefined for a command with `transaction: 'own'`. */
  tx: Tx | undefined;
  /** The request's write scope (its deadline, its request id): a command with its own transactions stops and tags them by it. */
  write: WriteScope | undefined;
}

export interface RecordCommand {
  /** The key clients send (matched exactly, as the platform does): `COWORKER_BILL_RUN`. */
  key: string;
  /** Display name. */
  name: string;
  /** The permission the run needs (`CoworkerInvoice-Create`); listing needs `<Entity>-List`. */
  permission: Permission;
  order?: number;
  /** Ids it takes: any number (default), exactly one, or exactly two; or several (two or more). */
  applies?: 'any' | 'one' | 'two' | 'many';
  /** Whether it needs ids at all (default true). */
  needsEntities?: boolean;
  displayInDropdown?: boolean;
  parameters?: readonly CommandParameter[];
  /** Why a record's state does not allow the command now; null when it does (asynchronous when it must read more than the record). */
  refuses?(record: WireRecord): string | null | Promise<string | null>;
  /**
   * 'one' (default): every id in one transaction, all or nothing; `run` gets its tx. 'own': the
   * command makes its own transactions (a billing run commits per customer), after the ids were checked.
   */
  transaction?: 'one' | 'own';
  /**
   * Bulk work (a print): its reads and its run wait for a turn of the request thread's bulk lane
   * (bulk-lane.ts), so interactive requests that arrived meanwhile are answered first.
   */
  bulk?: boolean;
  /**
   * The JSON schema of the answer's `Value` (docs/api.md §10: the OpenAPI document types each command's
   * answer); built from the document's schemas when a function. Absent: `Value` is null.
   */
  value?: CommandValueSchema;
  /** Does the work; throw `refusal(...)` (or any 4xx WireResponseException) to refuse. Returns the answer's Value. */
  run(context: CommandContext): Promise<unknown>;
}

/** A JSON schema (OpenAPI 3.0), or one made from the schemas of the document (`schemas.CoworkerInvoiceLine`). */
export type CommandValueSchema =
  Record<string, unknown> | ((schemas: Readonly<Record<string, Record<string, unknown>>>) => Record<string, unknown>);

/** A command as `GET /commands` lists it (docs/billing.md). */
export interface CommandDescription {
  Key: string;
  Name: string;
  AppliesOnlyToOneEntity: boolean;
  AppliesOnlyToMultipleEntities: boolean;
  AppliesOnlyToTwoEntities: boolean;
  DisplayInDropdown: boolean;
  NeedsEntitiesToRun: boolean;
  Order: number;
  RequiresParameters: Array<{ Name: string; Type: string }>;
}

/** What the record router (record-router.ts) hands over: the type and how to read one of its records. */
export interface CommandTarget {
  definition: RecordDefinition<any>;
  get(id: number, actor: Principal | undefined, tx?: Tx): Promise<WireRecord>;
}

const SUCCESS = 'The command was run correctly.';

/** Refused runs answer HTTP 200 with this body (docs/billing.md). */
const refused = (message: string): ActionConfirmation => failureConfirmation(400, message);

/** The commands of every record type, declared with its definition by the modules that implement them. */
@Injectable()
export class RecordCommands {
  private readonly byType = new Map<RecordDefinition<any>, RecordCommand[]>();

  constructor(private readonly db: Database) {}

  /** Declares commands of the record type of `definition`, which must offer commands (`commands: true`). */
  register(definition: RecordDefinition<any>, ...commands: RecordCommand[]): void {
    if (!definition.commands) throw new Error(`${definition.name} offers no commands (its definition lacks commands: true)`);
    const list = this.byType.get(definition) ?? [];
    for (const command of commands) {
      if (list.some((existing) => existing.key.toLowerCase() === command.key.toLowerCase()))
        throw new Error(`Command ${command.key} of ${definition.name} is registered twice`);
      list.push(command);
    }
    list.sort((a, b) => (a.order ?? 0) - (b.order ?? 0));
    this.byType.set(definition, list);
  }

  /** Every record type's commands, by its definition (for the OpenAPI document). */
  all(): ReadonlyMap<RecordDefinition<any>, readonly RecordCommand[]> {
    return this.byType;
  }

  commandsOf(definition: RecordDefinition<any>): readonly RecordCommand[] {
    return this.byType.get(definition) ?? [];
  }

  /** `GET /commands[?id=]`: every command of the type, or those the record's state allows now. */
  async describe(target: CommandTarget, id: unknown, actor: Principal | undefined): Promise<CommandDescription[]> {
    let commands = this.commandsOf(target.definition);
    if (id !== undefined && id !== '') {
      const parsed = parseId(id);
      if (parsed === null) throw new RecordNotFoundException();
      const record = await target.get(parsed, actor);
      const allowed = await Promise.all(commands.map(async (command) => !(await command.refuses?.(record))));
      commands = commands.filter((_, index) => allowed[index]);
    }
    return commands.map(describe);
  }

  /** `POST /runcommand`: always an ActionConfirmation; refusals change nothing for any id. */
  async run(target: CommandTarget, body: unknown, actor: Principal | undefined, write?: WriteScope): Promise<ActionConfirmation> {
    const request = (body && typeof body === 'object' && !Array.isArray(body) ? body : {}) as Record<string, unknown>;
    const key = field(request, 'Key');
    if (typeof key !== 'string' || !key) return refused('Key: the command to run is required.');
    const command = this.commandsOf(target.definition).find((candidate) => candidate.key.toLowerCase() === key.toLowerCase());
    if (!command) return refused(`Unknown command "${key}" for ${target.definition.name}.`);
    if (!actor || !allows(actor, command.permission)) throw new UnauthorizedException();

    const ids = readIds(field(request, 'Ids'));
    if (typeof ids === 'string') return refused(ids);
    const shape = checkCount(command, ids.length);
    if (shape) return refused(shape);
    const parameters = readParameters(command, field(request, 'Parameters'));
    if (typeof parameters === 'string') return refused(parameters);

    const work = async (tx: Tx | undefined) => {
      const records: WireRecord[] = [];
      for (const id of ids) {
        const record = await this.reach(target, id, actor, tx);
        const why = await command.refuses?.(record);
        if (why) throw new WireResponseException(refused(why), 400);
        records.push(record);
      }
      const value = await command.run({ ids, records, parameters, actor, tx, write });
      if (!(value instanceof CommandResult)) return successConfirmation(SUCCESS, value ?? null, actor.email);
      // Assigned, not spread: V8 on Node 20 makes spread objects in the old generation (withFields, record-writes.ts).
      return Object.assign(successConfirmation(value.message ?? SUCCESS, value.value ?? null, actor.email), {
        RedirectURL: value.redirectUrl,
      });
    };
    try {
      if (command.bulk) await bulkTurn();
      if (command.transaction === 'own') return await work(undefined);
      return await this.db.transaction((tx) => work(tx), write);
    } catch (error) {
      // A refusal rolled everything back; it is answered as the platform answers it, with HTTP 200.
      if (
        error instanceof WireResponseException &&
        error.getStatus() >= 400 &&
        error.getStatus() < 500 &&
        ![401, 409, 412, 422].includes(error.getStatus())
      ) {
        const answer = error.getResponse();
        if (answer && typeof answer === 'object' && 'WasSuccessful' in answer) return answer as ActionConfirmation;
        return refused(String(answer));
      }
      throw error;
    }
  }

  /** A record of the ids: one that does not exist or lies outside the caller's businesses is a refusal. */
  private async reach(target: CommandTarget, id: number, actor: Principal | undefined, tx: Tx | undefined): Promise<WireRecord> {
    try {
      return await target.get(id, actor, tx);
    } catch (error) {
      if (error instanceof RecordNotFoundException || error instanceof UnauthorizedException) {
        throw new WireResponseException(refused(`${target.definition.name} ${id} does not exist or is not yours to change.`), 400);
      }
      throw error;
    }
  }
}

/** The registry every record module can inject (global, like the change log). */
@Global()
@Module({ providers: [RecordCommands], exports: [RecordCommands] })
export class RecordCommandsModule {}

function describe(command: RecordCommand): CommandDescription {
  const applies = command.applies ?? 'any';
  return {
    Key: command.key,
    Name: command.name,
    AppliesOnlyToOneEntity: applies === 'one',
    AppliesOnlyToMultipleEntities: applies === 'many',
    AppliesOnlyToTwoEntities: applies === 'two',
    DisplayInDropdown: command.displayInDropdown ?? true,
    NeedsEntitiesToRun: command.needsEntities ?? true,
    Order: command.order ?? 0,
    RequiresParameters: (command.parameters ?? []).map((parameter) => ({ Name: parameter.Name, Type: parameter.Type })),
  };
}

/** A field of the request body, its name matched case-insensitively. */
function field(body: Record<string, unknown>, name: string): unknown {
  const lower = name.toLowerCase();
  for (const key of Object.keys(body)) if (key.toLowerCase() === lower) return body[key];
  return undefined;
}

function parseId(value: unknown): number | null {
  const n = typeof value === 'number' ? value : typeof value === 'string' && /^\d{1,10}$/.test(value.trim()) ? Number(value.trim()) : NaN;
  return Number.isInteger(n) && n >= 1 && n <= MAX_ID ? n : null;
}

/** The ids of a run, without repeats; a message when they are not a list of ids. */
function readIds(value: unknown): number[] | string {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value) || value.length > 1000) return 'Ids: a list of at most 1000 record ids is expected.';
  const ids: number[] = [];
  for (const item of value) {
    const id = parseId(item);
    if (id === null) return `Ids: ${JSON.stringify(item)} is not a record id.`;
    if (!ids.includes(id)) ids.push(id);
  }
  return ids;
}

function checkCount(command: RecordCommand, count: number): string | null {
  if ((command.needsEntities ?? true) && count === 0) return `Ids: ${command.key} needs at least one record.`;
  const applies = command.applies ?? 'any';
  if (applies === 'one' && count !== 1) return `Ids: ${command.key} applies to exactly one record.`;
  if (applies === 'two' && count !== 2) return `Ids: ${command.key} applies to exactly two records.`;
  if (applies === 'many' && count < 2) return `Ids: ${command.key} applies to several records.`;
  return null;
}

/** The parameters by their declared names, converted; a message naming the first bad one. */
function readParameters(command: RecordCommand, value: unknown): Record<string, unknown> | string {
  const declared = command.parameters ?? [];
  const result: Record<string, unknown> = {};
  if (value !== undefined && value !== null && !Array.isArray(value)) return 'Parameters: a list of {Name, Value} is expected.';
  for (const item of (value as unknown[] | undefined) ?? []) {
    if (!item || typeof item !== 'object') return 'Parameters: a list of {Name, Value} is expected.';
    const entry = item as Record<string, unknown>;
    const name = field(entry, 'Name');
    if (typeof name !== 'string') return 'Parameters: each parameter needs a Name.';
    const lower = name.toLowerCase();
    let recordId: number | null = null;
    const parameter = declared.find((candidate) => {
      const prefix = candidate.Name.toLowerCase();
      if (!candidate.perId) return prefix === lower;
      recordId = lower.startsWith(prefix) ? parseId(lower.slice(prefix.length)) : null;
      return recordId !== null;
    });
    if (!parameter) continue; // not one of the command's: ignored, as unknown body fields are
    const raw = field(entry, 'Value');
    if (raw === undefined || raw === null || raw === '') continue;
    const converted = convert(parameter.Type, raw);
    if (converted === undefined) return `${name}: ${JSON.stringify(raw)} is not a valid ${parameter.Type}.`;
    if (parameter.perId) ((result[parameter.Name] ??= new Map<number, unknown>()) as Map<number, unknown>).set(recordId!, converted);
    else result[parameter.Name] = converted;
  }
  for (const parameter of declared) {
    if (parameter.required && result[parameter.Name] === undefined) return `${parameter.Name}: the parameter is required.`;
  }
  return result;
}

/** A parameter value of a type, from its typed JSON or its text; undefined when it is not one. */
export function convert(type: CommandParameterType, raw: unknown): unknown {
  switch (type) {
    case 'Boolean':
      if (typeof raw === 'boolean') return raw;
      return typeof raw === 'string' && /^(true|false)$/i.test(raw.trim()) ? raw.trim().toLowerCase() === 'true' : undefined;
    case 'Integer': {
      const n = typeof raw === 'number' ? raw : typeof raw === 'string' && /^-?\d{1,10}$/.test(raw.trim()) ? Number(raw.trim()) : NaN;
      return Number.isInteger(n) && Math.abs(n) <= MAX_ID ? n : undefined;
    }
    case 'Decimal': {
      const n = typeof raw === 'number' ? raw : typeof raw === 'string' && /^-?\d+(\.\d+)?$/.test(raw.trim()) ? Number(raw.trim()) : NaN;
      return fitsMoney(n) ? n : undefined;
    }
    case 'Date': {
      if (typeof raw !== 'string') return undefined;
      const parsed = parseDateTime(raw.trim());
      if (!parsed || parsed.getUTCFullYear() < 1000 || parsed.getUTCFullYear() > 9999) return undefined;
      return parsed.toISOString().slice(0, 10);
    }
    case 'DateTime': {
      if (typeof raw !== 'string') return undefined;
      const parsed = parseDateTime(raw.trim());
      return parsed && parsed.getUTCFullYear() >= 1000 && parsed.getUTCFullYear() <= 9999 ? parsed : undefined;
    }
    case 'String':
      return typeof raw === 'string' ? raw : typeof raw === 'number' || typeof raw === 'boolean' ? String(raw) : undefined;
  }
}
