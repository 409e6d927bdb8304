import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, it } from 'node:test';
import { RecordService } from './record.service.js';

// Compiled layout: dist/src/common/this-file.js; the record services are dist/src/**/*.service.js.
const sourceRoot = join(import.meta.dirname, '..');

async function recordServices(): Promise<Array<typeof RecordService>> {
  const files = readdirSync(sourceRoot, { recursive: true, encoding: 'utf8' }).filter((file) => file.endsWith('.service.js'));
  const found: Array<typeof RecordService> = [];
  for (const file of files) {
    const exports = (await import(pathToFileURL(join(sourceRoot, file)).href)) as Record<string, unknown>;
    for (const value of Object.values(exports)) {
      if (typeof value === 'function' && value.prototype instanceof RecordService) found.push(value as typeof RecordService);
    }
  }
  return found;
}

/** Whether a class or one of its ancestors below RecordService defines the hook. */
function overrides(service: typeof RecordService, hook: 'beforeSave' | 'afterSave'): boolean {
  for (let proto = service.prototype; proto && proto !== RecordService.prototype; proto = Object.getPrototypeOf(proto)) {
    if (Object.hasOwn(proto, hook)) return true;
  }
  return false;
}

describe('RecordService.hasSaveHooks', () => {
  it('is set by exactly the record services that define save hooks (a create then runs them)', async () => {
    const services = await recordServices();
    assert.ok(services.length >= 10, `found ${services.length} record services`);
    for (const service of services) {
      // The flag is a field: an instance made without its dependencies carries it.
      const flagged = (Reflect.construct(service, []) as unknown as { hasSaveHooks: boolean }).hasSaveHooks;
      assert.equal(flagged, overrides(service, 'beforeSave') || overrides(service, 'afterSave'), service.name);
    }
  });
});
