import { InMemoryAgentStateStore } from './agent-state.store';
import { agentStateStoreContract } from './agent-state.store.contract';

agentStateStoreContract('InMemoryAgentStateStore', () => new InMemoryAgentStateStore(), 'mem');
