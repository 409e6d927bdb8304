import type { ExecutionContext, Type } from '@nestjs/common';

// The guards' view of a record route (docs/architecture.md §1.2): the record router runs the global
// guards itself, so it gives them the execution context a Nest route would.

type HttpArgumentsHost = ReturnType<ExecutionContext['switchToHttp']>;

/** The class the guards see as a record route's controller (`context.getClass()`): it has no metadata. */
export class RecordRouter {}

/**
 * The execution context the guards are given on a record route, made here and nowhere else (no
 * private `ExecutionContextHost` of Nest: the public interface is all a guard reads): the route's handler (a function holding its access metadata, read by the guards' Reflector as on a Nest
 * route), the router's class, and the request and reply.
 */
class RouteContext implements ExecutionContext, HttpArgumentsHost {
  constructor(
    private readonly handler: () => void,
    private readonly request: unknown,
    private readonly reply: unknown,
    private readonly controller: Type<unknown>,
  ) {}
  getClass<T = unknown>(): Type<T> {
    return this.controller as Type<T>;
  }
  getHandler(): () => void {
    return this.handler;
  }
  getArgs<T extends unknown[] = unknown[]>(): T {
    return [this.request, this.reply, undefined] as T;
  }
  getArgByIndex<T = unknown>(index: number): T {
    return this.getArgs()[index] as T;
  }
  getType<T extends string = string>(): T {
    return 'http' as T;
  }
  switchToHttp(): HttpArgumentsHost {
    return this;
  }
  switchToRpc(): ReturnType<ExecutionContext['switchToRpc']> {
    throw new Error('A record route is HTTP');
  }
  switchToWs(): ReturnType<ExecutionContext['switchToWs']> {
    throw new Error('A record route is HTTP');
  }
  getRequest<T = unknown>(): T {
    return this.request as T;
  }
  getResponse<T = unknown>(): T {
    return this.reply as T;
  }
  getNext<T = unknown>(): T {
    return undefined as T;
  }
}

/** The execution context of a handler (its class: the router's by default) for the guards; also what their unit tests give them. */
export const routeContext = (
  handler: () => void,
  request: unknown,
  reply: unknown,
  controller: Type<unknown> = RecordRouter,
): ExecutionContext => new RouteContext(handler, request, reply, controller);
