import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Database } from '../../persistence/database.js';
import type { RecordDefinition } from '../record-definition.js';
import { RecordCommands, type RecordCommand } from './record-commands.js';

const definition = (name: string, commands?: boolean): RecordDefinition<any> => ({
  name,
  path: `area/${name.toLowerCase()}s`,
  entity: class {},
  toStringText: () => '',
  commands,
});
const command = (key: string, order?: number): RecordCommand => ({
  key,
  name: key,
  permission: { entity: 'Thing', action: 'Edit' },
  order,
  run: () => Promise.resolve(null),
});

describe('record commands are declared with their record type', () => {
  it("keeps each type's commands by its definition, in their order", () => {
    const commands = new RecordCommands({} as Database);
    const thing = definition('Thing', true);
    // Another definition of the same name is another type: a command never finds its type by name.
    const namesake = definition('Thing', true);
    commands.register(thing, command('LATER', 20), command('SOONER', 10));
    assert.deepEqual(
      commands.commandsOf(thing).map((declared) => declared.key),
      ['SOONER', 'LATER'],
    );
    assert.deepEqual(commands.commandsOf(namesake), []);
  });

  it('refuses a type whose definition offers no commands, and a key declared twice', () => {
    const commands = new RecordCommands({} as Database);
    assert.throws(() => commands.register(definition('Plain'), command('RUN')), /Plain offers no commands/);
    const thing = definition('Thing', true);
    commands.register(thing, command('RUN'));
    assert.throws(() => commands.register(thing, command('run')), /registered twice/);
  });
});
