/**
 * KafkaBus's producer connect tries again while kafkajs finds no controller ("Broker -1 not found in the
 * cached metadata", seen once in a CI run right after other suites' topics were created), and only then.
 */
import { connectPastMissingController } from './kafka.bus';

const missingController = (): Error => Object.assign(new Error('Broker -1 not found in the cached metadata'), { name: 'KafkaJSBrokerNotFound' });

describe('the producer connect', () => {
  it('tries again while the controller is missing, then connects', async () => {
    let calls = 0;
    await connectPastMissingController(async () => {
      if (++calls < 3) throw missingController();
    }, 10, 1);
    expect(calls).toBe(3);
  });

  it('gives up after its attempts with the last error', async () => {
    let calls = 0;
    await expect(connectPastMissingController(async () => {
      calls++;
      throw missingController();
    }, 4, 1)).rejects.toThrow('Broker -1');
    expect(calls).toBe(4);
  });

  it('rejects any other error at once', async () => {
    let calls = 0;
    await expect(connectPastMissingController(async () => {
      calls++;
      throw Object.assign(new Error('Connection error: ECONNREFUSED'), { name: 'KafkaJSConnectionError' });
    }, 10, 1)).rejects.toThrow('ECONNREFUSED');
    expect(calls).toBe(1);
  });
});
