import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { RequestMethod, type DynamicModule, type Provider, type Type } from '@nestjs/common';
import { METHOD_METADATA, MODULE_METADATA, PATH_METADATA } from '@nestjs/common/constants.js';
import { AppModule } from './app.module.js';
import { CUSTOMER_ONLY, IS_PUBLIC, PERMISSION, type Permission } from './platform/access.js';
import type { RecordDefinition } from './records/record-definition.js';
import { recordRoutes } from './http/record-router.js';
import { RECORD_DEFINITION } from './records/record.service.js';
import { validateEnvironment } from './config/configuration.js';

/** docs/routes.md, from the repository's root (docs/architecture.md §1, "Routes"). */
export const ROUTES_DOC = join('docs', 'routes.md');

/** One route of the service: what docs/routes.md lists. */
export interface RouteRow {
  method: string;
  path: string;
  /** `Product-Create`, `public`, `customer`, or `authenticated` (the handler decides the rest). */
  permission: string;
  /** The file that declares it: the record type's definition, or the hand-written controller. */
  file: string;
}

type ModuleEntry = Type<unknown> | DynamicModule | { forwardRef: () => Type<unknown> } | Promise<DynamicModule>;

/** The modules the application imports, each with its controllers and providers (Nest's own module metadata). */
function modulesOf(root: DynamicModule): Array<{ controllers: Type<unknown>[]; providers: Provider[] }> {
  const found: Array<{ controllers: Type<unknown>[]; providers: Provider[] }> = [];
  const seen = new Set<unknown>();
  const visit = (entry: ModuleEntry | undefined) => {
    if (!entry || entry instanceof Promise || seen.has(entry)) return;
    seen.add(entry);
    if ('forwardRef' in entry) return visit(entry.forwardRef());
    const dynamic = 'module' in entry ? entry : undefined;
    const moduleClass = dynamic ? dynamic.module : (entry as Type<unknown>);
    const metadata = <T>(key: string): T[] => [
      ...((Reflect.getMetadata(key, moduleClass) as T[] | undefined) ?? []),
      ...(((dynamic as Record<string, unknown> | undefined)?.[key] as T[] | undefined) ?? []),
    ];
    found.push({ controllers: metadata(MODULE_METADATA.CONTROLLERS), providers: metadata(MODULE_METADATA.PROVIDERS) });
    for (const imported of metadata<ModuleEntry>(MODULE_METADATA.IMPORTS)) visit(imported);
  };
  visit(root);
  return found;
}

const permissionText = (permission: Permission | null | undefined, isPublic = false, customer = false): string =>
  isPublic ? 'public' : customer ? 'customer' : permission ? `${permission.entity}-${permission.action}` : 'authenticated';

const joinPath = (...parts: Array<string | undefined>) =>
  `/${parts.filter(Boolean).join('/')}`.replace(/\/+/g, '/').replace(/(.)\/$/, '$1');

/** The source files under `src/`, to name the file of each route. */
function sources(root: string): Array<{ file: string; text: string }> {
  return readdirSync(join(root, 'src'), { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.ts') && !file.endsWith('.spec.ts'))
    .map((file) => ({
      file: relative(root, join(root, 'src', file))
        .split('\\')
        .join('/'),
      text: readFileSync(join(root, 'src', file), 'utf8'),
    }));
}

/**
 * Every route of the service with the default configuration: the record routes from the record
 * router's table (record-router.ts), each type found by the definition its module provides, and the
 * hand-written Nest controllers' routes from their decorators. `root` is the repository's root, whose
 * `src/` names each route's file.
 */
export function routeTable(root: string): RouteRow[] {
  const config = validateEnvironment({
    NODE_ENV: 'test',
    DATABASE_URL: 'sqlite::memory:',
    JWT_SECRET: 'route-table-route-table-route-table-0123',
  });
  const files = sources(root);
  const fileWith = (pattern: RegExp) => files.find(({ text }) => pattern.test(text))?.file ?? '?';
  const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const rows: RouteRow[] = [];
  const controllers = new Set<Type<unknown>>();
  for (const module of modulesOf(AppModule.register(config))) {
    for (const controller of module.controllers) controllers.add(controller);
    for (const provider of module.providers) {
      if (typeof provider !== 'object' || !('provide' in provider) || provider.provide !== RECORD_DEFINITION || !('useValue' in provider))
        continue;
      const definition = provider.useValue as RecordDefinition<any>;
      const file = fileWith(new RegExp(`path:\\s*['"]${escape(definition.path)}['"]`));
      for (const route of recordRoutes(definition))
        rows.push({
          method: route.method,
          path: route.path,
          permission: route.operation === 'notAllowed' ? 'authenticated (405: not offered)' : permissionText(route.permission),
          file,
        });
    }
  }
  for (const controller of controllers) {
    const file = fileWith(new RegExp(`class ${escape(controller.name)}\\b`));
    const prefixes = [Reflect.getMetadata(PATH_METADATA, controller) as string | string[] | undefined].flat();
    for (const key of Object.getOwnPropertyNames(controller.prototype)) {
      const handler = Object.getOwnPropertyDescriptor(controller.prototype, key)?.value as object | undefined;
      if (typeof handler !== 'function' || Reflect.getMetadata(METHOD_METADATA, handler) === undefined) continue;
      const method = RequestMethod[Reflect.getMetadata(METHOD_METADATA, handler) as RequestMethod];
      const look = <T>(metadataKey: string) =>
        (Reflect.getMetadata(metadataKey, handler) ?? Reflect.getMetadata(metadataKey, controller)) as T | undefined;
      const permission = permissionText(
        look<Permission>(PERMISSION),
        look<boolean>(IS_PUBLIC) === true,
        look<boolean>(CUSTOMER_ONLY) === true,
      );
      for (const prefix of prefixes) {
        for (const path of [Reflect.getMetadata(PATH_METADATA, handler) as string | string[]].flat())
          rows.push({ method, path: joinPath(prefix, path), permission, file });
      }
    }
  }
  return rows.sort((a, b) => a.path.localeCompare(b.path) || a.method.localeCompare(b.method));
}

/** docs/routes.md as text. */
export function routesDocument(rows: readonly RouteRow[]): string {
  const lines = [
    '# Routes',
    '',
    'Every route of the service (default configuration), written by `npm run docs:routes` from the record',
    "router's table (`src/http/record-router.ts`) and the hand-written controllers' decorators; a unit test",
    '(`src/route-table.spec.ts`) fails when this file is out of date. Permission: the role a route needs',
    '(full administrators hold every one), `authenticated` (any signed-in user; the operation decides the rest),',
    "`customer` (a customer's token) or `public`. File: where the record type is defined, or the controller.",
    '',
    '| Method | Path | Permission | File |',
    '|---|---|---|---|',
    ...rows.map((row) => `| ${row.method} | \`${row.path}\` | ${row.permission} | \`${row.file}\` |`),
    '',
  ];
  return lines.join('\n');
}
