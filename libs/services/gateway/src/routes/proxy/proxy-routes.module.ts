/** Route family `POST /v1/chat/completions` (the OpenAI-compatible LLM proxy, DESIGN §12). */
import { Module } from '@nestjs/common';
import { ChatCompletionsController } from './chat-completions.controller';

@Module({ controllers: [ChatCompletionsController] })
export class ProxyRoutesModule {}
