// Issue #31: the OpenAPI description covers every route the gateway's server answers. The routes are read
// from the Express router of a running gateway with the operators' surface mounted (every controller Nest
// registered, whichever module brought it), so a new route without a description fails here, and so does
// a description of a route that no longer exists.
import type { RunningServices } from '../runtime';
import { call, startWithGateway } from './gateway.testing';

interface RouterLayer {
  route?: { path: string; methods: Record<string, boolean> };
}

/** `METHOD /path/{param}` for each route of the router (Express `:param` → OpenAPI `{param}`). */
function registeredRoutes(running: RunningServices): string[] {
  const express = running.gateway?.app.getHttpAdapter().getInstance() as { router: { stack: RouterLayer[] } };
  const routes = new Set<string>();
  for (const layer of express.router.stack) {
    // The LLM passthrough answers every other /v1 path (said in the description's info): no path of its own.
    if (!layer.route || layer.route.path === '/v1/*path') continue;
    const path = layer.route.path.replace(/:(\w+)/g, '{$1}');
    for (const [method, on] of Object.entries(layer.route.methods)) if (on && method !== '_all') routes.add(`${method.toUpperCase()} ${path}`);
  }
  return [...routes].sort();
}

const METHODS = ['get', 'put', 'post', 'patch', 'delete', 'head', 'options'];

describe('the OpenAPI description covers every gateway route', () => {
  let running: RunningServices;
  let described: string[];

  beforeAll(async () => {
    running = await startWithGateway();
    const { body } = await call(running.gateway?.url ?? '', 'GET', '/v1/openapi.json');
    described = Object.entries(body.paths as Record<string, Record<string, unknown>>)
      .flatMap(([path, item]) => Object.keys(item).filter((key) => METHODS.includes(key)).map((method) => `${method.toUpperCase()} ${path}`))
      .sort();
  });
  afterAll(async () => {
    await running?.stop();
  });

  it('reads the routes from the router: the agents doors, the policy, the query API and the probes are among them', () => {
    expect(registeredRoutes(running)).toEqual(expect.arrayContaining(['POST /v1/steps', 'PATCH /v1/policy', 'POST /v1/chat/completions', 'GET /v1/agents/{agentId}/timeline', 'GET /health/ready', 'GET /v1/openapi.json']));
  });

  it('describes each registered route, and no route that is not registered', () => {
    const registered = registeredRoutes(running);
    expect(registered.filter((route) => !described.includes(route))).toEqual([]);
    expect(described.filter((route) => !registered.includes(route))).toEqual([]);
  });
});
