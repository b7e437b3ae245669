/**
 * For tests only: a stand-in for the gateway's auth guard that maps the `x-test-tenant` header to a
 * TenantContext (`x-test-operator: 1` for an operator, `x-test-local: 1` for local mode). No header → no
 * context, so the routes answer 401 as they would behind a guard that found no key.
 */
import 'reflect-metadata';
import { Injectable, Module, type CanActivate, type DynamicModule, type ExecutionContext, type INestApplication } from '@nestjs/common';
import { APP_GUARD, NestFactory } from '@nestjs/core';
import { TENANT_CONTEXT_PROPERTY, type RequestWithTenant } from './tenant-context';

@Injectable()
export class HeaderTenantGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    const request = context.switchToHttp().getRequest<RequestWithTenant>();
    const tenant = request.headers['x-test-tenant'];
    if (typeof tenant === 'string') {
      request[TENANT_CONTEXT_PROPERTY] = { tenantId: tenant, operator: request.headers['x-test-operator'] === '1', local: request.headers['x-test-local'] === '1' };
    }
    return true;
  }
}

export async function startTestHttpApp(feature: DynamicModule): Promise<{ app: INestApplication; url: string }> {
  @Module({ imports: [feature], providers: [{ provide: APP_GUARD, useClass: HeaderTenantGuard }] })
  class TestHttpModule {}
  const app = await NestFactory.create(TestHttpModule, { logger: false });
  await app.listen(0, '127.0.0.1');
  const { port } = app.getHttpServer().address() as { port: number };
  return { app, url: `http://127.0.0.1:${port}` };
}
