/** @wayfinder/sdk/ai: the Vercel AI SDK integration. */
export * from './wayfinder-ai-sdk';
