// Every handler of the /v2 resource routes, keyed by the registry's handler ids
// (src/platform/route-table.ts), from each resource of resources.ts; the registrar checks
// that both lists match.
import type { PlatformDeps } from './deps.ts';
import type { HandlerMap } from './handler.ts';
import { resources } from './resources.ts';

export function allHandlers(deps: PlatformDeps): HandlerMap {
  return Object.assign({}, ...resources.map((r) => r.handlers(deps))) as HandlerMap;
}
