export { readChatRequest, contentText, answerOfCompletion, type ChatMessage, type ChatToolCall, type ChatRequest, type ChatAnswer, type ChatRequestResult } from './chat-request';
export { ChatStreamAssembler } from './chat-stream';
export { requestSteps, answerSteps, rewriteStep, stepCount, stepsBefore, argsOf, conversationRunId, chatEventId, MAX_TOOL_CALLS, type ChatIdentity, type ChatStep } from './chat-steps';
export { ConversationTracker, type Admission } from './conversation-tracker';
export { pendingCorrections, guidanceText, withGuidance, frozenError, frozenMessage, chatError, FROZEN_STATUS, type CorrectionSeen, type PendingCorrections, type FreezeCorrection, type Guidance, type ChatErrorBody } from './chat-corrections';
export { chatRollback, type ChatRollback } from './chat-rollback';
