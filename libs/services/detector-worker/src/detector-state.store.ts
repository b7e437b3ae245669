/**
 * Where a detector worker keeps per-agent detector state between processes (DESIGN §7): the services'
 * AgentStateStore port, kind 'detector' (Redis in distributed mode, none in embedded mode, where a single
 * process owns every agent).
 */
import type { AgentRef as Ref, AgentStateStore } from '@wayfinder/service-core';

export type AgentRef = Ref;
export type DetectorStateStore = AgentStateStore;

export const DETECTOR_STATE_STORE = Symbol('wayfinder.detector-state-store');
