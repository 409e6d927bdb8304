import type { OpenAPIObject } from '@nestjs/swagger';
import type { CommandParameter, CommandParameterType, RecordCommand, RecordCommands } from '../records/commands/record-commands.js';
import { ref, type Schema } from './openapi.js';

// The commands protocol in the OpenAPI document (docs/api.md §10): each command of a record type is a
// schema of its own — its `Key`, its `Ids` and its typed `Parameters` — and the `runcommand` body is one
// of them, discriminated by `Key`, so a generated client types every command it sends; the answer's
// `Value` is typed by what the commands declare (`RecordCommand.value`). Nothing here is written per command.

/** `COWORKER_BILL_RUN` → `CoworkerBillRun`: the stem of a command's schema names. */
const stem = (key: string) =>
  key
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean)
    .map((part) => part[0].toUpperCase() + part.slice(1))
    .join('');

/** OpenAPI 3.0's null: refused runs and commands that answer nothing. */
const NULL_VALUE: Schema = {
  type: 'object',
  nullable: true,
  enum: [null],
  description: 'null: refused, or a command that answers no value.',
};

/** A parameter's `Value` as the platform's clients send it: typed JSON, or its text (docs/billing.md). */
const VALUE_SCHEMAS: Record<CommandParameterType, Schema> = {
  Boolean: { anyOf: [{ type: 'boolean' }, { type: 'string', pattern: '^([Tt][Rr][Uu][Ee]|[Ff][Aa][Ll][Ss][Ee])$' }] },
  Integer: {
    anyOf: [
      { type: 'integer', format: 'int32' },
      { type: 'string', pattern: '^-?\\d{1,10}$' },
    ],
  },
  Decimal: { anyOf: [{ type: 'number' }, { type: 'string', pattern: '^-?\\d+(\\.\\d+)?$' }] },
  Date: { type: 'string', description: 'A date (2027-03-31); a date-time is taken as its UTC date.' },
  DateTime: { type: 'string', description: 'A date-time (UTC unless an offset is given) or a date.' },
  String: { type: 'string' },
};

function parameterSchema(parameter: CommandParameter): Schema {
  const name: Schema = parameter.perId
    ? {
        type: 'string',
        pattern: `^${parameter.Name.replace(/[^\w ]/g, '\\$&')}\\d+$`,
        description: `${parameter.Name} followed by a record's id (${parameter.Name}1234): its value for that record.`,
      }
    : { type: 'string', enum: [parameter.Name], description: 'Matched case-insensitively.' };
  return {
    type: 'object',
    required: ['Name', 'Value'],
    properties: { Name: name, Type: { type: 'string', description: 'Optional and ignored.' }, Value: VALUE_SCHEMAS[parameter.Type] },
  };
}

const IDS_DESCRIPTION: Record<NonNullable<RecordCommand['applies']>, string> = {
  any: 'The records to run it on (at most 1000).',
  one: 'Exactly one record.',
  two: 'Exactly two records.',
  many: 'Two records or more (at most 1000).',
};

/** The body of `runcommand` for one command. */
function commandSchema(command: RecordCommand): Schema {
  const parameters = (command.parameters ?? []).map(parameterSchema);
  const items =
    parameters.length === 1
      ? parameters[0]
      : parameters.length
        ? { anyOf: parameters }
        : { type: 'object', description: 'The command takes no parameters; any given are ignored.' };
  return {
    type: 'object',
    description: `${command.name} (permission ${command.permission.entity}-${command.permission.action}).`,
    required: ['Key'],
    properties: {
      Key: { type: 'string', enum: [command.key] },
      Ids: {
        type: 'array',
        maxItems: 1000,
        items: { type: 'integer', format: 'int32', minimum: 1 },
        description: (command.needsEntities ?? true) ? IDS_DESCRIPTION[command.applies ?? 'any'] : 'Not needed.',
      },
      Parameters: { type: 'array', items },
    },
  };
}

/**
 * Types the `runcommand` operations of every record type with commands: the body one of its commands'
 * schemas (discriminated by `Key`), the answer an ActionConfirmation whose `Value` is one of theirs.
 */
export function documentCommands(document: OpenAPIObject, commands: RecordCommands): void {
  const schemas = (document.components!.schemas ??= {}) as Record<string, Schema>;
  for (const [definition, declared] of commands.all()) {
    const typeName = definition.name;
    const path = runCommandPath(document, typeName);
    const operation = path
      ? (document.paths[path].post as { requestBody?: unknown; responses: Record<string, { description: string; content?: unknown }> })
      : undefined;
    if (!operation || !declared.length) continue;
    const mapping: Record<string, string> = {};
    // A refused run answers Value null, whatever the command.
    const values: Schema[] = [NULL_VALUE];
    for (const command of declared) {
      const name = stem(command.key);
      schemas[`${name}Command`] = commandSchema(command);
      const value = typeof command.value === 'function' ? command.value(schemas) : command.value;
      mapping[command.key] = `#/components/schemas/${name}Command`;
      if (!value) continue;
      schemas[`${name}Value`] = { ...value, description: value.description ?? `The Value of ${command.key}.` };
      values.push(ref(`${name}Value`));
    }
    operation.requestBody = {
      required: true,
      content: {
        'application/json': {
          schema: { oneOf: Object.values(mapping).map(($ref) => ({ $ref })), discriminator: { propertyName: 'Key', mapping } },
        },
      },
    };
    schemas[`${typeName}CommandAnswer`] = {
      allOf: [ref('ActionConfirmation'), { type: 'object', properties: { Value: values.length === 1 ? values[0] : { anyOf: values } } }],
      description: `The answer of a ${typeName} command: Value as the command sent declares it (null when refused).`,
    };
    operation.responses['200'] = {
      ...operation.responses['200'],
      content: { 'application/json': { schema: ref(`${typeName}CommandAnswer`) } },
    };
  }
}

/** The `runcommand` path of a record type, found by the operation's tag. */
function runCommandPath(document: OpenAPIObject, typeName: string): string | undefined {
  return Object.entries(document.paths).find(
    ([path, item]) => path.endsWith('/runcommand') && (item.post?.tags ?? []).includes(typeName),
  )?.[0];
}
