import { UnauthorizedException, type CanActivate, type INestApplicationContext } from '@nestjs/common';
import { ExecutionContextHost } from '@nestjs/core/helpers/execution-context-host.js';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import { sendError } from './http-exception.filter.js';
import type { Principal } from './principal.js';
import { recordControllers, type RecordControllerShape } from './record.controller.js';
import type { WireRecord } from './record-definition.js';
import { RecordIdPipe } from './record-id.pipe.js';
import { ifNoneMatchMatches, recordEtag } from './versions.js';

const recordId = new RecordIdPipe();

/**
 * Record reads (list, batch get, get by id) are the hot path: Fastify hands them straight to the
 * same global guards, with the same route metadata, and to the same controller methods, and writes
 * errors with the same function as the global filter. What it skips is Nest's per-request
 * machinery (execution context, param pipes, interceptors), which these routes do not use and which
 * on its own cost as much as the whole bare handler. Nest still declares the routes, so the
 * OpenAPI document and every other route are unchanged.
 */
export function installFastReads(app: NestFastifyApplication, guards: (app: INestApplicationContext) => CanActivate[]): void {
  let resolvedGuards: CanActivate[] | undefined;
  const fastify = app.getHttpAdapter().getInstance();
  fastify.addHook('onRoute', (route: RouteOptions) => {
    if (route.method !== 'GET' && !(Array.isArray(route.method) && route.method.length === 1 && route.method[0] === 'GET')) return;
    const byId = route.url.endsWith('/:id');
    const controllerClass = recordControllers.get(byId ? route.url.slice(0, -'/:id'.length) : route.url);
    if (!controllerClass) return;
    const method = byId ? 'get' : 'list';
    const handlerRef = controllerClass.prototype[method] as (...args: unknown[]) => unknown;
    let controller: RecordControllerShape | undefined;
    route.handler = async function fastRecordRead(request: FastifyRequest, reply: FastifyReply) {
      try {
        const context = new ExecutionContextHost([request, reply, undefined], controllerClass, handlerRef);
        context.setType('http');
        for (const guard of (resolvedGuards ??= guards(app))) {
          if (!(await guard.canActivate(context))) throw new UnauthorizedException();
        }
        const target: RecordControllerShape = controller ?? (controller = app.get<RecordControllerShape>(controllerClass, { strict: false }));
        const actor = (request as FastifyRequest & { user?: Principal }).user;
        if (!byId) return reply.send(await target.list(request.query as Record<string, unknown>, actor));
        const record = await target.get(recordId.transform((request.params as { id: string }).id), actor) as WireRecord;
        // The ETag comes from the version the read already selected; a matching If-None-Match is 304.
        const etag = recordEtag(record);
        if (etag !== undefined) {
          void reply.header('ETag', etag);
          const ifNoneMatch = request.headers['if-none-match'];
          if (ifNoneMatch !== undefined && ifNoneMatchMatches(ifNoneMatch, etag)) return reply.code(304).send();
        }
        return reply.send(record);
      } catch (error) {
        sendError(error, request, reply);
        return reply;
      }
    };
  });
}
