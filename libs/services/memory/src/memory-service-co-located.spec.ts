/**
 * The memory module mounted the way `startServices` mounts services: in one microservice app (no HTTP)
 * next to other services that handle the same topics. Nest chains handlers of one pattern, so the memory
 * handlers and the detector worker's both see every map and localized step.
 */
import 'reflect-metadata';
import { Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { BusTransport, InProcessBus } from '@wayfinder/bus';
import { HashingEmbedder } from '@wayfinder/embeddings';
import { DetectorWorkerModule, LocalizedHandler } from '@wayfinder/service-detector-worker';
import { InMemoryMapStore, PolicyBook, WayfinderCoreModule } from '@wayfinder/service-core';
import { MemoryServiceModule } from './memory-service.module';
import { localized, reportMap, until } from './memory-service.testing';
import { memoryStores } from './memory-stores';

describe('memory service co-located with the detector worker', () => {
  it('runs beside the other handlers of the maps and localized topics', async () => {
    const bus = new InProcessBus();
    const embedder = new HashingEmbedder();
    const stores = memoryStores({ mode: 'embedded', dimension: embedder.dimension });
    const core = WayfinderCoreModule.forRoot({ bus, mapStore: new InMemoryMapStore(), policyBook: new PolicyBook(), embedder });
    @Module({ imports: [core, DetectorWorkerModule, MemoryServiceModule.forRoot(stores)] })
    class ColocatedModule {}
    const app = await NestFactory.createMicroservice(ColocatedModule, { strategy: new BusTransport(bus, { groupId: 'colocated' }), logger: false });
    await app.listen();
    try {
      const onStep = jest.spyOn(app.get(LocalizedHandler).engine, 'onStep');
      const agent = { tenantId: 'acme', taskId: 'report', agentId: 'a1' };
      await bus.publish('wayfinder.maps.v1', [reportMap('acme', 'report')]);
      await bus.publish('wayfinder.localized.v1', [localized(agent, 1, { kind: 'milestone', milestone: { id: 'collect', status: 'done' } }, { milestoneId: 'pricing', completed: ['collect'] })]);
      await until(async () => (await stores.workingMemory.listCheckpoints(agent)).length === 1, 'the checkpoint');
      expect((await stores.workingMemory.getCharter(agent))?.goal).toBe('Write a market report on 5 competitors of Acme.');
      await until(async () => onStep.mock.calls.length === 1, 'the detector worker’s handler');
    } finally {
      await app.close();
    }
  });
});
