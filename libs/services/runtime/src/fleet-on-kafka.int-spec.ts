import { SettlingBus } from '../../../../apps/cli/src/demo/settling-bus';
it('x', () => expect(SettlingBus).toBeDefined());
