// A port in use: listenOnBus rejects with the listen error and stops the bus it had started, so a
// `wayfinder start` whose gateway cannot bind exits instead of hanging on the bus's consumers.
import { createServer, type Server } from 'node:net';
import { Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { InProcessBus } from '../in-process.bus';
import { listenOnBus } from './http-app-on-bus';

@Module({})
class EmptyModule {}

describe('listenOnBus on a port already in use', () => {
  let taken: Server;
  let port: number;
  beforeAll(async () => {
    taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    port = (taken.address() as { port: number }).port;
  });
  afterAll(() => new Promise<void>((resolve) => taken.close(() => resolve())));

  it('rejects with EADDRINUSE and stops the bus it started', async () => {
    const bus = new InProcessBus();
    const stop = jest.spyOn(bus, 'stop');
    const app = await NestFactory.create(EmptyModule, { logger: false });
    await expect(listenOnBus(app, { bus, groupId: 'port-in-use', port })).rejects.toThrow(/EADDRINUSE/);
    expect(stop).toHaveBeenCalledTimes(1);
  });
});
