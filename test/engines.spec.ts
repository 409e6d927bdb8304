import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import semver from 'semver';
import { ROOT } from './support/service.js';

// The supported Node versions (package.json "engines") run from the oldest LTS the project supports to
// the image's: every package in the lock file must accept all of them, so `npm ci` prints no
// EBADENGINE (a transitive package that wants a newer Node is pinned in "overrides").

const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { engines: { node: string }; overrides?: Record<string, string> };
const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8')) as { packages: Record<string, { version?: string; engines?: { node?: string } | string[] }> };
const OLDEST = '20.19.0';
const imageMajor = Number(/^FROM node:(\d+)/m.exec(readFileSync(join(ROOT, 'Dockerfile'), 'utf8'))?.[1]);
/** The image's tag follows the newest release of its major (node:22 was 22.23 on 2026-11-26). */
const IMAGE_LTS = `${imageMajor}.20.0`;

describe('Node versions', () => {
  it(`engines covers ${OLDEST} up to the image's Node (${imageMajor}), and no unreleased major`, () => {
    const range = manifest.engines.node;
    // Node 22, not 24: better-sqlite3 12 aborts Node 24 when a statement is finalized (docs/operations.md, "Image and Node versions").
    assert.equal(imageMajor, 22);
    for (const version of [OLDEST, '20.20.2', '22.12.0', `${imageMajor}.0.0`, `${imageMajor}.99.0`]) assert.ok(semver.satisfies(version, range), `${version} in ${range}`);
    for (const version of ['20.18.0', '18.20.0', `${imageMajor + 1}.0.0`]) assert.ok(!semver.satisfies(version, range), `${version} not in ${range}`);
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
