/**
 * What the co-located services of one process share, provided globally: the bus (in-process or Kafka),
 * the map store, the policy book, the hashing embedder, the semantic embedders' vectors and the clock. `wayfinder start` builds it from the configuration;
 * tests build it from fakes of the same ports.
 */
import { Global, Module, type DynamicModule, type Provider } from '@nestjs/common';
import type { Bus } from '@wayfinder/bus';
import { systemClock, type Clock } from '@wayfinder/clock';
import type { MapStore } from '@wayfinder/cognitive-map';
import type { PolicyBook } from '@wayfinder/detection';
import type { PrefetchingVectorSource, SyncEmbedder } from '@wayfinder/embeddings';
import { BUS, CLOCK, EMBEDDER, MAP_STORE, POLICY_BOOK, VECTORS } from './tokens';

export interface CoreDependencies {
  bus: Bus;
  mapStore: MapStore;
  policyBook: PolicyBook;
  /** The hashing embedder (localization; detectors whose policy chose hashing). */
  embedder: SyncEmbedder;
  /** Vectors of the semantic embedders per detector (DESIGN §5.6); default: hashing serves every choice. */
  vectors?: PrefetchingVectorSource;
  /** The clock of the process's handlers (default: the system clock). */
  clock?: Clock;
  /** Further process-wide providers (e.g. the detector state store in distributed mode). */
  extraProviders?: Provider[];
}

@Global()
@Module({})
export class WayfinderCoreModule {
  static forRoot(deps: CoreDependencies): DynamicModule {
    const providers: Provider[] = [
      { provide: BUS, useValue: deps.bus },
      { provide: MAP_STORE, useValue: deps.mapStore },
      { provide: POLICY_BOOK, useValue: deps.policyBook },
      { provide: EMBEDDER, useValue: deps.embedder },
      { provide: VECTORS, useValue: deps.vectors ?? null },
      { provide: CLOCK, useValue: deps.clock ?? systemClock },
      ...(deps.extraProviders ?? []),
    ];
    return { module: WayfinderCoreModule, providers, exports: providers.map((p) => (typeof p === 'function' ? p : p.provide)) };
  }
}
