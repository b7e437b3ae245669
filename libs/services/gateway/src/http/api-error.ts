/**
 * The one error body of the HTTP API (STYLE "Doors"): `{error, field?, index?}`, with `Retry-After` on
 * 429 and 503. Every exception a route throws, or Nest throws for it, leaves through ApiErrorFilter.
 */
import { Catch, HttpException, Logger, type ArgumentsHost, type ExceptionFilter } from '@nestjs/common';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { z } from 'zod';

export interface ApiErrorBody {
  error: string;
  field?: string;
  index?: number;
}

export class ApiError extends HttpException {
  constructor(
    status: number,
    readonly body: ApiErrorBody,
    readonly retryAfterSeconds?: number,
  ) {
    super(body, status);
  }
}

export const badRequest = (error: string, field?: string, index?: number) => new ApiError(400, withOptional(error, field, index));
export const forbidden = (error: string, field?: string, index?: number) => new ApiError(403, withOptional(error, field, index));
export const notFound = (error: string) => new ApiError(404, { error });

function withOptional(error: string, field?: string, index?: number): ApiErrorBody {
  return { error, ...(field !== undefined && { field }), ...(index !== undefined && { index }) };
}

/** The first zod issue as an error body: the message names the path, `field` carries it. */
export function zodProblem(error: z.ZodError): { error: string; field: string } {
  const issue = error.issues[0];
  const keys = issue.code === 'unrecognized_keys' ? issue.keys : [];
  const path = [...issue.path, ...keys.slice(0, 1)].join('.') || '(root)';
  return { error: `${path}: ${issue.message}`, field: path };
}

/** The first segments under `/v1` that are Wayfinder's own API; every other `/v1/...` path is the LLM proxy's. */
export const WAYFINDER_ROOTS: ReadonlySet<string> = new Set(['steps', 'tasks', 'agents', 'policy', 'traces', 'hooks', 'fleet', 'escalations', 'tenants', 'deviations', 'openapi.json', 'mcp', 'keys']);

/**
 * Whose error shape a path's errors take: Anthropic's for `/v1/messages` (and below it), OpenAI's for
 * every other path of the LLM proxy (chat completions and the paths passed through), none (the API's
 * own `{error}`) for Wayfinder's API and anything outside `/v1`.
 */
export function proxyDialectOf(url: string | undefined): 'openai' | 'anthropic' | undefined {
  const match = url === undefined ? null : /^\/v1\/([^/?#]+)/.exec(url);
  if (!match) return undefined;
  if (match[1] === 'messages') return 'anthropic';
  return WAYFINDER_ROOTS.has(match[1]) ? undefined : 'openai';
}

/** Paths of the OpenAI-compatible LLM proxy, whose errors take the OpenAI shape. */
export function isOpenAiPath(url: string | undefined): boolean {
  return proxyDialectOf(url) === 'openai';
}

const ANTHROPIC_TYPES: Record<number, string> = { 400: 'invalid_request_error', 401: 'authentication_error', 403: 'permission_error', 404: 'not_found_error', 413: 'request_too_large', 423: 'permission_error', 429: 'rate_limit_error', 529: 'overloaded_error' };

export interface AnthropicErrorBody {
  type: 'error';
  error: { type: string; message: string };
}

/** `{type:"error", error:{type, message}}`, the body Anthropic's clients turn into their error classes. */
export function anthropicError(status: number, message: string): AnthropicErrorBody {
  return { type: 'error', error: { type: ANTHROPIC_TYPES[status] ?? (status >= 500 ? 'api_error' : 'invalid_request_error'), message } };
}

const OPENAI_TYPES: Record<number, string> = { 400: 'invalid_request_error', 401: 'authentication_error', 403: 'permission_error', 404: 'not_found_error', 413: 'invalid_request_error', 429: 'rate_limit_error' };

/** `{error:{message,type,param,code}}`, the body OpenAI clients turn into their error classes. */
export function openAiError(status: number, body: ApiErrorBody): { error: { message: string; type: string; param: string | null; code: string | null } } {
  return { error: { message: body.error, type: OPENAI_TYPES[status] ?? (status >= 500 ? 'server_error' : 'invalid_request_error'), param: body.field ?? null, code: status === 429 ? 'rate_limit_exceeded' : null } };
}

/** Paths of the MCP door (`/v1/mcp/...`), whose errors are JSON-RPC error responses. */
export function isMcpPath(url: string | undefined): boolean {
  return url !== undefined && /^\/v1\/mcp(\/|\?|$)/.test(url);
}

/**
 * A JSON-RPC error response, as MCP clients read a failed HTTP exchange: the request's id is not known
 * here (null, as JSON-RPC allows), the HTTP status and the field named go in `data`. A refused body is
 * an invalid request (-32600); anything else a server error (-32000, the range MCP servers use).
 */
export function mcpError(status: number, body: ApiErrorBody): { jsonrpc: '2.0'; id: null; error: { code: number; message: string; data: { status: number; field?: string } } } {
  return { jsonrpc: '2.0', id: null, error: { code: status === 400 || status === 413 ? -32600 : -32000, message: body.error, data: { status, ...(body.field !== undefined && { field: body.field }) } } };
}

@Catch()
export class ApiErrorFilter implements ExceptionFilter {
  private readonly logger = new Logger('gateway');

  catch(exception: unknown, host: ArgumentsHost): void {
    const response = host.switchToHttp().getResponse<ServerResponse>();
    let status = 500;
    let body: ApiErrorBody = { error: 'internal error' };
    let retryAfter: number | undefined;
    if (exception instanceof ApiError) {
      status = exception.getStatus();
      body = exception.body;
      retryAfter = exception.retryAfterSeconds;
    } else if (exception instanceof HttpException) {
      status = exception.getStatus();
      const raw = exception.getResponse();
      const shaped = typeof raw === 'object' && raw !== null && typeof (raw as { error?: unknown }).error === 'string' && (raw as { message?: unknown }).message === undefined;
      if (shaped) {
        // Already the API's shape (the operations module's errors): kept as is, field and index included.
        const { error, field, index } = raw as ApiErrorBody;
        body = { error, ...(typeof field === 'string' && { field }), ...(typeof index === 'number' && { index }) };
      } else {
        const message = typeof raw === 'string' ? raw : (raw as { message?: unknown }).message;
        body = { error: Array.isArray(message) ? message.join('; ') : String(message ?? exception.message) };
      }
    } else {
      this.logger.error(`unhandled: ${(exception as Error)?.stack ?? String(exception)}`);
    }
    if (response.headersSent) {
      response.end();
      return;
    }
    // Refused before its body was read (401, 403, 429…): drain it and close, or the next request on this
    // keep-alive connection would be read from the middle of the unread body.
    const request = host.switchToHttp().getRequest<IncomingMessage>();
    if (!request.complete) {
      response.setHeader('Connection', 'close');
      request.resume();
    }
    if (retryAfter !== undefined) response.setHeader('Retry-After', String(retryAfter));
    response.statusCode = status;
    response.setHeader('Content-Type', 'application/json; charset=utf-8');
    // The LLM proxy answers in the error shape its clients read (OpenAI's, or Anthropic's on /v1/messages),
    // the MCP door in JSON-RPC's.
    const dialect = proxyDialectOf(request.url);
    const shaped = isMcpPath(request.url) ? mcpError(status, body) : dialect === 'openai' ? openAiError(status, body) : dialect === 'anthropic' ? anthropicError(status, body.error) : body;
    response.end(JSON.stringify(shaped));
  }
}
