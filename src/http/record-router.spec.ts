import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { RecordDefinition } from '../records/record-definition.js';
import { recordRoutes } from './record-router.js';

const definition = (more: Partial<RecordDefinition<any>> = {}): RecordDefinition<any> => ({
  name: 'Thing',
  path: 'area/things',
  entity: class {},
  dto: class {},
  toStringText: () => '',
  ...more,
});
const table = (routes: ReturnType<typeof recordRoutes>) =>
  routes
    .map(
      (route) =>
        `${route.method} ${route.path} ${route.operation} ${route.permission ? `${route.permission.entity}-${route.permission.action}` : 'authenticated'}`,
    )
    .sort();

describe("recordRoutes: the record router's table", () => {
  it('declares each operation of a full type once, with its role', () => {
    assert.deepEqual(table(recordRoutes(definition())), [
      'DELETE /api/area/things/:id delete Thing-Delete',
      'GET /api/area/things list Thing-List',
      'GET /api/area/things/:id get Thing-Read',
      'GET /api/area/things/:id/history history Thing-Read',
      'GET /api/area/things/batch batch Thing-List',
      'POST /api/area/things create Thing-Create',
      'PUT /api/area/things update Thing-Edit',
      'PUT /api/area/things/:id updateById Thing-Edit',
    ]);
  });

  it('gives a read-only type its reads, the read permission it names, commands, and 405 for the rest when it says so', () => {
    const routes = recordRoutes(
      definition({
        operations: ['list', 'get'],
        readPermission: { entity: 'Other', action: 'Read' },
        commands: true,
        methodNotAllowed: true,
      }),
    );
    assert.deepEqual(table(routes), [
      'DELETE /api/area/things/:id notAllowed authenticated',
      'GET /api/area/things list Other-Read',
      'GET /api/area/things/:id get Other-Read',
      'GET /api/area/things/:id/history history Other-Read',
      'GET /api/area/things/batch batch Other-Read',
      'GET /api/area/things/commands commands Thing-List',
      'POST /api/area/things notAllowed authenticated',
      'POST /api/area/things/runcommand runcommand authenticated',
      'PUT /api/area/things notAllowed authenticated',
      'PUT /api/area/things/:id notAllowed authenticated',
    ]);
    assert.ok(
      routes.filter((route) => route.operation === 'notAllowed').every((route) => !route.document),
      'the 405 answers are not documented',
    );
  });

  it('offers no create or update without a body, and parses path ids from their raw text', () => {
    const routes = recordRoutes(definition({ dto: undefined }));
    assert.deepEqual(routes.map((route) => route.operation).sort(), ['batch', 'delete', 'get', 'history', 'list']);
    const get = routes.find((route) => route.operation === 'get')!;
    for (const bad of ['1.0', '0x3', 'abc', '1e3', '0', '01', '2147483648']) {
      assert.throws(
        () => get.parse({ params: { id: bad } } as never),
        (error: Error) => error.constructor.name === 'RecordNotFoundException',
        bad,
      );
    }
    assert.equal(get.parse({ params: { id: '42' } } as never), 42);
  });
});
