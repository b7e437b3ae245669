/** @wayfinder/sdk/langchain: the LangChain.js callback handler. */
export * from './wayfinder-callback-handler';
