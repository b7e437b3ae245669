/** Route family of the LLM proxy (DESIGN §12): `POST /v1/chat/completions`, `/v1/responses` and `/v1/messages`, over one ProxyExchange. */
import { Module } from '@nestjs/common';
import { AnthropicMessagesController } from './anthropic-messages.controller';
import { ChatCompletionsController } from './chat-completions.controller';
import { OpenAiResponsesController } from './openai-responses.controller';
import { ProxyExchange } from './proxy-exchange';

@Module({ controllers: [ChatCompletionsController, OpenAiResponsesController, AnthropicMessagesController], providers: [ProxyExchange], exports: [ProxyExchange] })
export class ProxyRoutesModule {}
