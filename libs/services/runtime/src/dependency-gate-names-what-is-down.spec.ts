/**
 * The dependency gate the runtime gives its buses: ready only when every dependency answers (a real
 * Redis, a QdrantVectorStore with nothing listening), and the pause and resume lines name the ones that
 * did not answer, so that an operator reading the log knows which server to look at.
 */
import Redis from 'ioredis';
import { redisCheck, type HealthCheck } from '@wayfinder/health';
import { QdrantVectorStore } from '@wayfinder/qdrant';
import { dependencyGate } from './dependency-gate';

describe('the dependency gate', () => {
  const redis = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', { lazyConnect: true, maxRetriesPerRequest: 1 });
  // Port 9 (discard) on loopback: nothing listens, the connection is refused at once.
  const qdrant = new QdrantVectorStore({ url: 'http://127.0.0.1:9', dimension: 4 });
  afterAll(() => redis.quit());

  it('is ready when every dependency answers, and pauses naming the one that does not', async () => {
    const lines: string[] = [];
    const dependencies: Record<string, HealthCheck> = { Redis: redisCheck(redis) };
    const gate = dependencyGate(dependencies, (line) => lines.push(line));
    expect(await gate.ready()).toBe(true);

    // The memory service joins on a Qdrant that does not answer.
    dependencies.Qdrant = () => qdrant.ping();
    expect(await gate.ready()).toBe(false);
    gate.onChange!(true, 0);
    expect(lines).toEqual(['wayfinder: Qdrant does not answer: consumption paused']);

    // Qdrant answers again: the resume line names what the pause was for.
    dependencies.Qdrant = async () => undefined;
    expect(await gate.ready()).toBe(true);
    gate.onChange!(false, 1_234);
    expect(lines[1]).toBe('wayfinder: Qdrant answers again after 1234 ms: consumption resumed');
  });

  it('names every dependency that is down, and counts a check that throws or hangs as down', async () => {
    const lines: string[] = [];
    const broken = new Redis('redis://127.0.0.1:9', { lazyConnect: true, maxRetriesPerRequest: 0, enableOfflineQueue: false, retryStrategy: () => null });
    const gate = dependencyGate(
      {
        Redis: redisCheck(broken),
        Qdrant: () => Promise.reject(new Error('socket hang up')),
        Other: () => new Promise(() => undefined),
      },
      (line) => lines.push(line),
      200,
    );
    expect(await gate.ready()).toBe(false);
    gate.onChange!(true, 0);
    expect(lines).toEqual(['wayfinder: Redis, Qdrant and Other do not answer: consumption paused']);
    broken.disconnect();
  });
});
