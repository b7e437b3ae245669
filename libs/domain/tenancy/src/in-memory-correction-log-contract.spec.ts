// The in-memory CorrectionLog (embedded mode) passes the contract suite.
import { InMemoryCorrectionLog } from './correction-log';
import { correctionLogContract } from './correction-log.contract';

correctionLogContract((limits) => {
  let now = Date.now();
  return { log: new InMemoryCorrectionLog({ ...limits, now: () => now }), advance: (ms) => void (now += ms) };
});
