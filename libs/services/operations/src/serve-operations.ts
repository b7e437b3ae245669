/** Serves the operations module alone on loopback in local mode (`wayfinder start --simulate`, the browser test). */
import 'reflect-metadata';
import { Module, type INestApplication } from '@nestjs/common';
import { APP_GUARD, NestFactory } from '@nestjs/core';
import { LocalOperatorGuard } from './local-operator.guard';
import { OperationsHttpModule, type OperationsHttpDependencies } from './operations-http.module';
import { SessionBook } from './session-book';

export async function serveOperationsLocally(deps: OperationsHttpDependencies, port = 0): Promise<{ app: INestApplication; url: string }> {
  const sessions = deps.sessions ?? new SessionBook();
  @Module({ imports: [OperationsHttpModule.forRoot({ ...deps, sessions })], providers: [{ provide: APP_GUARD, useFactory: () => new LocalOperatorGuard(sessions) }] })
  class LocalOperationsModule {}
  const app = await NestFactory.create(LocalOperationsModule, { logger: ['error', 'warn'] });
  await app.listen(port, '127.0.0.1');
  const { port: bound } = app.getHttpServer().address() as { port: number };
  return { app, url: `http://127.0.0.1:${bound}` };
}
