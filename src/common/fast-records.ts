import { UnauthorizedException, type CanActivate, type INestApplicationContext } from '@nestjs/common';
import { ExecutionContextHost } from '@nestjs/core/helpers/execution-context-host.js';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import { actorOf } from './access.js';
import { sendError } from './http-exception.filter.js';
import { Idempotency } from './idempotency/idempotency.js';
import type { Principal } from './principal.js';
import { recordControllers, type RecordControllerShape } from './record.controller.js';
import type { WireRecord } from './record-definition.js';
import { RecordIdPipe } from './record-id.pipe.js';
import { ifNoneMatchMatches, recordEtag } from './versions.js';
import { runWrite } from './write.interceptor.js';

const recordId = new RecordIdPipe();

type RecordRequest = FastifyRequest & { user?: Principal };

/** Whether Fastify declares the route for this one method. */
const isOnly = (route: RouteOptions, method: string) => route.method === method || (Array.isArray(route.method) && route.method.length === 1 && route.method[0] === method);

/**
 * Record reads (list, batch get, get by id) and creates are the hot paths: Fastify hands them straight
 * to the same global guards, with the same route metadata, and to the same controller methods, and
 * writes errors with the same function as the global filter. A create runs in the same write scope as
 * any write (runWrite: deadline, Idempotency-Key, ETag) and reads its body with the create route's own
 * decorator and pipe. What is skipped is Nest's per-request machinery (execution context, param pipes,
 * interceptors as observables), which on its own cost as much as the whole bare read handler. Nest
 * still declares the routes, so the OpenAPI document and every other route are unchanged.
 */
export function installFastRecordRoutes(app: NestFastifyApplication, guards: (app: INestApplicationContext) => CanActivate[]): void {
  let resolvedGuards: CanActivate[] | undefined;
  let idempotency: Idempotency | undefined;
  const fastify = app.getHttpAdapter().getInstance();
  fastify.addHook('onRoute', (route: RouteOptions) => {
    const byId = route.url.endsWith('/:id');
    const routes = recordControllers.get(byId ? route.url.slice(0, -'/:id'.length) : route.url);
    if (!routes) return;
    const creates = !byId && isOnly(route, 'POST');
    if (!isOnly(route, 'GET') && !(creates && routes.createBody)) return;
    const { controller: controllerClass, createBody } = routes;
    const method = creates ? 'create' : byId ? 'get' : 'list';
    const handlerRef = controllerClass.prototype[method] as (...args: unknown[]) => unknown;
    let controller: RecordControllerShape | undefined;

    /** The guards, then the controller (as Nest would resolve them). */
    async function authorize(request: RecordRequest, reply: FastifyReply): Promise<RecordControllerShape> {
      const context = new ExecutionContextHost([request, reply, undefined], controllerClass, handlerRef);
      context.setType('http');
      for (const guard of (resolvedGuards ??= guards(app))) {
        if (!(await guard.canActivate(context))) throw new UnauthorizedException();
      }
      return controller ?? (controller = app.get<RecordControllerShape>(controllerClass, { strict: false }));
    }

    route.handler = async function fastRecordRoute(request: RecordRequest, reply: FastifyReply) {
      try {
        const target = await authorize(request, reply);
        if (creates) {
          // The create route's status (HttpCode 200), set before the work as Nest sets it.
          void reply.code(200);
          const keys = idempotency ?? (idempotency = app.get<Idempotency>(Idempotency, { strict: false }));
          const result = await runWrite(keys, request, reply, async () => target.create(await createBody!(request), actorOf(request)));
          return reply.sent ? reply : reply.send(result);
        }
        // (A result that comes after its deadline's 503 went out is dropped: app.setup.ts.)
        if (!byId) {
          const list = await target.list(request.query as Record<string, unknown>, actorOf(request));
          return reply.sent ? reply : reply.send(list);
        }
        const record = await target.get(recordId.transform((request.params as { id: string }).id), actorOf(request)) as WireRecord;
        if (reply.sent) return reply;
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
