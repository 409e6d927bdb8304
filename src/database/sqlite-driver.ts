import { createRequire } from 'node:module';
import type { AppConfig } from '../config/configuration.js';

/** How Node reports a native module (a `.node` file) it cannot load: a build for another Node, a damaged file. */
export const isNativeModuleLoadFailure = (error: unknown): boolean => (error as { code?: unknown } | null)?.code === 'ERR_DLOPEN_FAILED';

/**
 * Why better-sqlite3's native part does not load in this Node, or null when it does. It is loaded with
 * the first connection, so without this check a build that does not fit would fail every connection
 * attempt, and start-up would retry them every three seconds forever (database.module.ts).
 */
export function sqliteDriverProblem(): string | null {
  try {
    const BetterSqlite3 = createRequire(import.meta.url)('better-sqlite3') as new (file: string) => { close(): void };
    new BetterSqlite3(':memory:').close();
    return null;
  } catch (error) {
    const reason = error instanceof Error ? error.message.split('\n')[0] : String(error);
    return (
      `The native module better-sqlite3 does not load in Node ${process.version} (${process.execPath}): ${reason}. ` +
      `It was built for another Node, or its build is damaged: reinstall it with the Node that runs the service ` +
      `(\`npm ci\`, or \`npm rebuild better-sqlite3\`).`
    );
  }
}

/** On SQLite, stops start-up with one message and exit code 1 when better-sqlite3 cannot load (docs/operations.md, "Image and Node versions"). */
export function exitUnlessSqliteDriverLoads(config: Pick<AppConfig, 'database'>): void {
  if (config.database.type !== 'sqlite') return;
  const problem = sqliteDriverProblem();
  if (!problem) return;
  console.error(`Cannot start: ${problem}`);
  process.exit(1);
}
