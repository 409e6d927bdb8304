import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import semver from 'semver';
import { ROOT } from './support/service.js';

// The supported Node versions (package.json "engines"): Node 22 from 22.14 (the first with Node-API 10,
// which better-sqlite3 13's build needs; 22.12 crashes loading it) and Node 24, the image's. Every
// package in the lock file must accept both ends, so `npm ci` prints no EBADENGINE.

const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  engines: { node: string };
  overrides?: Record<string, string>;
};
const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8')) as {
  packages: Record<string, { version?: string; engines?: { node?: string } | string[] }>;
};
const OLDEST = '22.14.0';
const imageMajor = Number(/^FROM node:(\d+)/m.exec(readFileSync(join(ROOT, 'Dockerfile'), 'utf8'))?.[1]);
/** The image's tag follows the newest release of its major (node:24 was 24.22 on 2026-11-29). */
const IMAGE_LTS = `${imageMajor}.20.0`;

describe('Node versions', () => {
  it(`engines covers Node 22 from ${OLDEST} and the image's Node (${imageMajor}), not Node 20, 23 nor 22.12`, () => {
    const range = manifest.engines.node;
    // Node 24 is the primary target (docs/operations.md, "Image and Node versions").
    assert.equal(imageMajor, 24);
    for (const version of [OLDEST, '22.23.5', `${imageMajor}.0.0`, `${imageMajor}.22.3`, `${imageMajor}.99.0`])
      assert.ok(semver.satisfies(version, range), `${version} in ${range}`);
    for (const version of ['20.20.2', '22.12.0', '23.11.0', '18.20.0'])
      assert.ok(!semver.satisfies(version, range), `${version} not in ${range}`);
  });

  it(`every package in package-lock.json accepts Node ${OLDEST} and ${IMAGE_LTS} (no EBADENGINE)`, () => {
    const refusing: string[] = [];
    for (const [path, entry] of Object.entries(lock.packages)) {
      const wanted = Array.isArray(entry.engines) ? undefined : entry.engines?.node;
      if (!path || !wanted) continue;
      for (const version of [OLDEST, IMAGE_LTS]) {
        if (!semver.satisfies(version, wanted)) refusing.push(`${path}@${entry.version} wants node ${wanted} (not ${version})`);
      }
    }
    assert.deepEqual(refusing, []);
  });
});
