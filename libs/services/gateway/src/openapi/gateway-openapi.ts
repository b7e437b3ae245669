/**
 * The OpenAPI 3.1 description of everything the gateway's server answers (the agents' doors, the policy,
 * the operators' query API and dashboard pages, health), served at `GET /v1/openapi.json` without a key.
 * The routes are written here, one entry per route a controller registers (a spec fails when a route has
 * no entry, or an entry no route); the bodies that are events (steps, tasks, maps, corrections, the
 * policy, anchor decisions) are generated from the zod contracts the routes validate with, so the
 * description cannot drift from what is checked (STYLE "Doors": one source of truth).
 */
import { zodToJsonSchema } from 'zod-to-json-schema';
import { z } from 'zod';
import { AnchorDecisionRequest, CognitiveMap, Correction, DETECTORS, StepEvent, TaskSpec, TenantPolicy } from '@wayfinder/contracts';
import { AGENT_SORTS, MAX_AGENT_PAGE } from '@wayfinder/history';

type Json = Record<string, unknown>;

/** The envelope fields the gateway fills when a body leaves them out (the key's tenant, a new eventId, now). */
const FILLED_ENVELOPE = { schema: true, eventId: true, ts: true, tenantId: true } as const;

/** A contract as a request body: the filled envelope fields optional. */
function envelopeOptional(schema: z.ZodTypeAny): z.ZodTypeAny {
  if (schema instanceof z.ZodObject) return schema.partial(FILLED_ENVELOPE);
  if (schema instanceof z.ZodDiscriminatedUnion) {
    const options = (schema.options as z.ZodTypeAny[]).map(envelopeOptional);
    return z.union(options as [z.ZodTypeAny, z.ZodTypeAny, ...z.ZodTypeAny[]]);
  }
  return schema;
}

/**
 * A zod contract as the JSON Schema of `components.schemas[name]`: the schema itself at that place (no
 * `$ref` beside `$defs`, which resolvers that replace a `$ref` by its target lose), its repeated and
 * recursive parts pointing inside it.
 */
function contract(name: string, schema: z.ZodTypeAny): Json {
  const generated = zodToJsonSchema(schema, { effectStrategy: 'input', $refStrategy: 'root', basePath: ['#', 'components', 'schemas', name] }) as Json;
  delete generated.$schema;
  return generated;
}

const ref = (name: string): Json => ({ $ref: `#/components/schemas/${name}` });
const json = (schema: Json, description: string): Json => ({ description, content: { 'application/json': { schema } } });
const pathParam = (name: string, description: string): Json => ({ name, in: 'path', required: true, description, schema: { type: 'string', minLength: 1, maxLength: 128 } });
const query = (name: string, description: string, schema: Json = { type: 'string' }): Json => ({ name, in: 'query', required: false, description, schema });
const header = (name: string, description: string, required = false): Json => ({ name, in: 'header', required, description, schema: { type: 'string' } });
const errors = (...codes: string[]): Json => Object.fromEntries(codes.map((code) => [code, { $ref: `#/components/responses/${ERROR_RESPONSES[code][0]}` }]));

const ERROR_RESPONSES: Record<string, [string, string]> = {
  '400': ['BadRequest', 'the request is invalid: `error` says why, `field` names the path (`policy.loop.warning`, `seq`)'],
  '401': ['Unauthorized', 'no key, an unknown key or a revoked key'],
  '403': ['Forbidden', 'another tenant named (`field: "tenantId"`), a viewer key on a route that acts (`field: "role"`), or a state-changing request by the session cookie without its CSRF token (`field: "X-CSRF-Token"`)'],
  '404': ['NotFound', "no such thing in the key's tenant (another tenant's is absent too)"],
  '413': ['PayloadTooLarge', 'the body is larger than the route accepts, or a batch larger than the burst'],
  '415': ['UnsupportedMediaType', 'a content type the route does not parse (`field: "Content-Type"`)'],
  '429': ['TooManyRequests', "over the tenant's ingest limit or the open-stream caps; retry after `Retry-After` seconds"],
  '503': ['Unavailable', 'the bus did not accept the events; nothing was accepted; retry after `Retry-After` seconds'],
};
const RETRY_AFTER = { 'Retry-After': { description: 'seconds to wait before retrying', schema: { type: 'integer', minimum: 1 } } };

const agentId = pathParam('agentId', 'the agent, as its steps name it');
const tenantQuery = query('tenantId', "a tenant: must be the key's (403 otherwise); the local operator (local mode, no key) names any, default `local`", { type: 'string', minLength: 1, maxLength: 128 });

const Problem: Json = {
  type: 'object',
  description: 'The one error body of the API.',
  required: ['error'],
  properties: { error: { type: 'string' }, field: { type: 'string', description: 'the path of the offending field' }, index: { type: 'integer', minimum: 0, description: 'the item of a batch' } },
};
const OpenAiProblem: Json = {
  type: 'object',
  description: "The LLM proxy's own errors, in the OpenAI shape its clients read.",
  required: ['error'],
  properties: { error: { type: 'object', required: ['message', 'type'], properties: { message: { type: 'string' }, type: { type: 'string' }, param: { type: ['string', 'null'] }, code: { type: ['string', 'null'] } } } },
};
const ReadinessReport: Json = {
  type: 'object',
  required: ['status', 'checks'],
  properties: {
    status: { enum: ['ready', 'not_ready'] },
    checks: { type: 'object', additionalProperties: { type: 'object', required: ['status', 'durationMs'], properties: { status: { enum: ['up', 'down'] }, durationMs: { type: 'number' }, error: { type: 'string' } } } },
  },
};
const PolicyMergePatch: Json = {
  type: 'object',
  description: 'A JSON merge patch (RFC 7396) of the wayfinder.policy.v1 document: objects merge member by member, `null` deletes a member, arrays and values replace.',
};
const HookInput: Json = {
  type: 'object',
  description: "A Claude Code hook's input (`PreToolUse`, `PostToolUse`, `PostToolUseFailure`), as the hook sends it.",
  required: ['session_id', 'hook_event_name', 'tool_name'],
  properties: { session_id: { type: 'string' }, hook_event_name: { type: 'string' }, tool_name: { type: 'string' }, tool_input: {}, tool_response: {}, tool_use_id: { type: 'string' }, error: { type: 'string' }, cwd: { type: 'string' }, transcript_path: { type: 'string' } },
};
const HookAnswer: Json = {
  type: 'object',
  description: '`{}` (no decision), or `hookSpecificOutput` with `permissionDecision: "deny"` and its reason (a frozen agent, a hard constraint), or `additionalContext` carrying pending guidance once; a frozen agent after a tool: `decision: "block"`.',
  properties: { hookSpecificOutput: { type: 'object' }, decision: { type: 'string' }, reason: { type: 'string' } },
};
const AnyObject: Json = { type: 'object' };
const html = (description: string): Json => ({ description, content: { 'text/html': { schema: { type: 'string' } } } });
const dashboard = (summary: string, operationId: string, parameters: Json[] = []): Json => ({
  get: { tags: ['dashboard'], summary, operationId, parameters, responses: { '200': html('the page (the login form without a key or session)'), '303': { description: 'to the login form' }, ...errors('404') } },
});

function buildDocument(): Json {
  return {
    openapi: '3.1.0',
    info: {
      title: 'Wayfinder gateway',
      version: 'v1',
      description:
        "The agents' HTTP door and the operators' API (DESIGN §12, §13). The key decides the tenant: `Authorization: Bearer <key>` (the LLM proxy: `X-Wayfinder-Key`), or the dashboard's session cookie. Local mode (embedded, loopback, no keys configured) needs no key. Every error is `{error, field?, index?}`; 429 and 503 carry `Retry-After`. Any other `/v1/...` path is passed through to the tenant's LLM upstream untouched (OpenAI's `models`, `embeddings`...; Anthropic's under `/v1/messages/`), without steps.",
    },
    servers: [{ url: 'http://127.0.0.1:7070', description: 'the embedded default' }],
    tags: [
      { name: 'ingest', description: 'steps, tasks, traces' },
      { name: 'corrections', description: "an agent's corrections, acknowledgements and resume" },
      { name: 'policy', description: "the tenant's wayfinder.policy.v1" },
      { name: 'doors', description: 'the LLM proxy, the MCP door and agent hooks' },
      { name: 'query', description: "the operators' read API" },
      { name: 'keys', description: "a tenant's API keys, for its operators" },
      { name: 'dashboard', description: 'server-rendered pages' },
      { name: 'meta', description: 'health and this description' },
    ],
    security: [{ bearerAuth: [] }, { sessionCookie: [] }],
    paths: {
      '/v1/steps': {
        post: {
          tags: ['ingest'],
          summary: 'Post step events',
          operationId: 'postSteps',
          description: 'A JSON array of wayfinder.step.v1 events, one event, or NDJSON. Each item is checked alone: valid ones are published, invalid ones named by index and field. `schema`, `eventId`, `ts` and `tenantId` may be left out.',
          parameters: [tenantQuery],
          requestBody: {
            required: true,
            content: {
              'application/json': { schema: { oneOf: [ref('StepEventInput'), { type: 'array', items: ref('StepEventInput') }] } },
              'application/x-ndjson': { schema: { type: 'string', description: 'one StepEventInput per line' } },
            },
          },
          responses: {
            '202': json({ type: 'object', required: ['accepted', 'rejected'], properties: { accepted: { type: 'integer', minimum: 0 }, rejected: { type: 'array', items: Problem } } }, 'accepted for processing (after the bus took the valid ones)'),
            ...errors('400', '401', '403', '413', '429', '503'),
          },
        },
      },
      '/v1/tasks': {
        post: {
          tags: ['ingest'],
          summary: 'Post a task; answers its cognitive map',
          operationId: 'postTask',
          parameters: [tenantQuery],
          requestBody: { required: true, content: { 'application/json': { schema: ref('TaskInput') } } },
          responses: { '201': json({ type: 'object', required: ['map'], properties: { map: ref('CognitiveMap') } }, 'the map the task-parser stores'), ...errors('400', '401', '403', '429', '503') },
        },
      },
      '/v1/traces': {
        post: {
          tags: ['ingest'],
          summary: 'OTLP/HTTP trace export',
          operationId: 'postTraces',
          description: 'An `ExportTraceServiceRequest` (protobuf or JSON, optionally gzip); spans become steps. Answers per the OTLP spec, in the request\'s encoding.',
          parameters: [tenantQuery, header('Content-Encoding', '`gzip` when compressed')],
          requestBody: { required: true, content: { 'application/x-protobuf': { schema: { type: 'string', contentMediaType: 'application/x-protobuf' } }, 'application/json': { schema: AnyObject } } },
          responses: {
            '200': { description: 'an ExportTraceServiceResponse (`partialSuccess` names rejected spans)', content: { 'application/x-protobuf': { schema: { type: 'string' } }, 'application/json': { schema: AnyObject } } },
            ...errors('400', '401', '403', '413', '415', '429', '503'),
          },
        },
      },
      '/v1/agents/{agentId}/corrections': {
        get: {
          tags: ['corrections'],
          summary: "An agent's corrections after a cursor (JSON long-poll, or SSE)",
          operationId: 'getCorrections',
          parameters: [agentId, query('after', 'the cursor of the last correction seen, or `now`: the log as it stands (a restarted agent skips what earlier runs were sent; a standing freeze, not yet resumed, comes first)'), query('wait', 'seconds to long-poll (0–30)', { type: 'integer', minimum: 0, maximum: 30 }), header('Last-Event-ID', 'SSE: resume after this cursor (or `now`; the stream then opens with that position as a bare `id:`)'), tenantQuery],
          responses: {
            '200': {
              description: 'the corrections after the cursor (at most 100), or with `Accept: text/event-stream` a stream of `event: correction` with the cursor as `id`',
              content: {
                'application/json': { schema: { type: 'object', required: ['corrections', 'cursor'], properties: { corrections: { type: 'array', items: ref('Correction') }, cursor: { type: 'string' } } } },
                'text/event-stream': { schema: { type: 'string' } },
              },
            },
            ...errors('400', '401', '403', '429'),
          },
        },
      },
      '/v1/agents/{agentId}/corrections/{correctionId}/ack': {
        post: {
          tags: ['corrections'],
          summary: 'Acknowledge a correction',
          operationId: 'ackCorrection',
          parameters: [agentId, pathParam('correctionId', "the correction's eventId"), tenantQuery],
          requestBody: { required: false, content: { 'application/json': { schema: { type: 'object', additionalProperties: false, properties: { outcome: { enum: ['applied', 'ignored'] } } } } } },
          responses: { '202': json({ type: 'object', properties: { acked: { const: true }, frozen: { const: true, description: 'the correction is a freeze: it stays until a human resumes the agent' } } }, 'acknowledged'), ...errors('400', '401', '403', '404') },
        },
      },
      '/v1/agents/{agentId}/resume': {
        post: {
          tags: ['corrections'],
          summary: 'Resume a frozen agent',
          operationId: 'resumeAgent',
          parameters: [agentId, tenantQuery],
          requestBody: { required: false, content: { 'application/json': { schema: { type: 'object', additionalProperties: false, properties: { reason: { type: 'string', maxLength: 4096 } } } } } },
          responses: { '202': json({ type: 'object', properties: { resumed: { const: true } } }, 'the resume is published'), ...errors('400', '401', '403', '404', '503') },
        },
      },
      '/v1/agents/{agentId}/anchors/{anchorId}': {
        post: {
          tags: ['corrections'],
          summary: "Confirm or reject a change of a task's anchor",
          operationId: 'decideAnchor',
          parameters: [agentId, pathParam('anchorId', "the anchor of the task's map"), tenantQuery],
          requestBody: { required: true, content: { 'application/json': { schema: ref('AnchorDecisionRequest') } } },
          responses: {
            '202': json({ type: 'object', required: ['kind', 'taskId', 'anchorId', 'proposalId'], properties: { kind: { enum: ['confirmed', 'rejected'] }, taskId: { type: 'string' }, anchorId: { type: 'string' }, proposalId: { type: 'string' } } }, 'published as a wayfinder.anchor-change.v1'),
            ...errors('400', '401', '403', '404', '503'),
          },
        },
      },
      '/v1/policy': {
        get: { tags: ['policy'], summary: "The tenant's policy (secrets shown as `***set***`)", operationId: 'getPolicy', parameters: [tenantQuery], responses: { '200': json(ref('TenantPolicy'), "the stored policy, or the built-in profile's values"), ...errors('401', '403') } },
        put: {
          tags: ['policy'],
          summary: "Set the tenant's whole policy",
          operationId: 'putPolicy',
          description: 'Validated (the contract, the operator\'s ingest ceiling and egress allow-list, the thresholds\' consistency; 400 naming the field), published and applied live. `***set***` in a secret field keeps the stored secret while the webhook URL stays.',
          parameters: [tenantQuery],
          requestBody: { required: true, content: { 'application/json': { schema: ref('TenantPolicyInput') } } },
          responses: { '200': json(ref('TenantPolicy'), 'the stored policy, secrets redacted'), ...errors('400', '401', '403', '503') },
        },
        patch: {
          tags: ['policy'],
          summary: 'Change only the named fields of the policy',
          operationId: 'patchPolicy',
          description: "A JSON merge patch applied to the tenant's current policy (the empty policy when it set none), then stored exactly like a PUT.",
          parameters: [tenantQuery],
          requestBody: { required: true, content: { 'application/merge-patch+json': { schema: ref('PolicyMergePatch') }, 'application/json': { schema: ref('PolicyMergePatch') } } },
          responses: { '200': json(ref('TenantPolicy'), 'the stored policy, secrets redacted'), ...errors('400', '401', '403', '415', '503') },
        },
      },
      '/v1/policy/check': {
        post: {
          tags: ['policy'],
          summary: 'Check a merge patch of the policy as a PATCH would, without storing it',
          operationId: 'checkPolicy',
          parameters: [tenantQuery],
          requestBody: { required: true, content: { 'application/merge-patch+json': { schema: AnyObject }, 'application/json': { schema: AnyObject } } },
          responses: { '200': json({ type: 'object', required: ['ok'], properties: { ok: { type: 'boolean' }, error: { type: 'string' }, field: { type: 'string' } } }, 'ok, or the first problem and the field it names'), ...errors('400', '401', '403', '413') },
        },
      },
      '/v1/chat/completions': {
        post: {
          tags: ['doors'],
          summary: 'OpenAI-compatible LLM proxy',
          operationId: 'chatCompletions',
          description: "Forwarded to the tenant's upstream with pending guidance added once as a system message; the answer comes back as the upstream sent it (streamed or not). `Authorization` is the upstream's and passes through.",
          security: [{ wayfinderKey: [] }],
          parameters: [header('X-Wayfinder-Agent', "the agent (else the body's `user`)"), header('X-Wayfinder-Task', 'the task (default: the agent id)'), header('X-Wayfinder-Run', 'the run (default: derived from the conversation)'), tenantQuery],
          requestBody: { required: true, content: { 'application/json': { schema: { type: 'object', required: ['messages'], properties: { model: { type: 'string' }, messages: { type: 'array', items: AnyObject }, stream: { type: 'boolean' }, user: { type: 'string' } } } } } },
          responses: {
            '200': { description: "the upstream's answer", content: { 'application/json': { schema: AnyObject }, 'text/event-stream': { schema: { type: 'string' } } } },
            '423': json(OpenAiProblem, 'the agent is frozen: resume it first'),
            default: json(OpenAiProblem, 'an error of the proxy (400, 401, 429, 502, 503, 504) or the upstream'),
          },
        },
      },
      '/v1/messages': {
        post: {
          tags: ['doors'],
          summary: "Anthropic Messages LLM proxy",
          operationId: 'anthropicMessages',
          description: "Forwarded to the tenant's upstream (else WAYFINDER_ANTHROPIC_UPSTREAM) with pending guidance appended to `system` once; `x-api-key`, `anthropic-version`, `anthropic-beta` and `Authorization` pass through. A frozen agent gets 423 in Anthropic's error shape.",
          security: [{ wayfinderKey: [] }],
          parameters: [header('X-Wayfinder-Agent', "the agent (else Claude Code's session in `metadata.user_id`)"), header('X-Wayfinder-Task', 'the task (default: the agent id)'), header('X-Wayfinder-Run', 'the run (default: derived from the conversation)'), tenantQuery],
          requestBody: { required: true, content: { 'application/json': { schema: { type: 'object', required: ['messages'], properties: { model: { type: 'string' }, system: {}, messages: { type: 'array', items: AnyObject }, stream: { type: 'boolean' } } } } } },
          responses: {
            '200': { description: "the upstream's answer", content: { 'application/json': { schema: AnyObject }, 'text/event-stream': { schema: { type: 'string' } } } },
            default: json(AnyObject, "an error in Anthropic's shape `{type: 'error', error: {type, message}}` (400, 401, 423, 429, 502, 503, 504)"),
          },
        },
      },
      '/v1/responses': {
        post: {
          tags: ['doors'],
          summary: 'OpenAI Responses LLM proxy',
          operationId: 'openaiResponses',
          description: "Forwarded to the tenant's upstream with pending guidance appended to `instructions` once; `input` items (messages, `function_call`, `function_call_output`) become steps. A `previous_response_id` chain is not followed.",
          security: [{ wayfinderKey: [] }],
          parameters: [header('X-Wayfinder-Agent', "the agent (else the body's `user`)"), header('X-Wayfinder-Task', 'the task (default: the agent id)'), header('X-Wayfinder-Run', 'the run (default: derived from the conversation)'), tenantQuery],
          requestBody: { required: true, content: { 'application/json': { schema: { type: 'object', properties: { model: { type: 'string' }, instructions: { type: 'string' }, input: {}, stream: { type: 'boolean' } } } } } },
          responses: {
            '200': { description: "the upstream's answer", content: { 'application/json': { schema: AnyObject }, 'text/event-stream': { schema: { type: 'string' } } } },
            '423': json(OpenAiProblem, 'the agent is frozen: resume it first'),
            default: json(OpenAiProblem, 'an error of the proxy (400, 401, 429, 502, 503, 504) or the upstream'),
          },
        },
      },
      '/v1/mcp/{server}': (() => {
        const common = {
          tags: ['doors'],
          security: [{ wayfinderKey: [] }],
          parameters: [
            { name: 'server', in: 'path', required: true, description: 'a server the operator configured (WAYFINDER_MCP_SERVERS); any other name is a 404', schema: { type: 'string', pattern: '^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$' } },
            header('Mcp-Session-Id', 'the MCP session (passed through)'),
            header('MCP-Protocol-Version', 'the MCP revision (passed through)'),
            header('X-Wayfinder-Agent', 'the agent (default: the MCP session)'),
            header('X-Wayfinder-Task', 'the task (default: the agent id)'),
            header('X-Wayfinder-Run', 'the run (default: the MCP session)'),
            tenantQuery,
          ],
        };
        const rpcError = json({ type: 'object', required: ['jsonrpc', 'error'], properties: { jsonrpc: { const: '2.0' }, id: { type: 'null' }, error: AnyObject } }, 'a JSON-RPC error response (401, 404 for an unknown server, 413, 429, 502, 503, 504) or the MCP server\'s own answer');
        const answer = { description: "the MCP server's answer", content: { 'application/json': { schema: AnyObject }, 'text/event-stream': { schema: { type: 'string' } } } };
        return {
          post: {
            ...common,
            summary: 'MCP Streamable HTTP: a JSON-RPC message to the server',
            operationId: 'mcpPost',
            description: "A `tools/call` becomes an action and its result an observation; a frozen agent's call or one breaking a hard constraint is not forwarded but answered with a tool result `isError: true` and the reason; pending guidance is appended to the next result as one text block, once. Every other message passes through untouched.",
            requestBody: { required: true, content: { 'application/json': { schema: {} } } },
            responses: { '200': answer, '202': { description: 'a notification or response accepted by the server' }, default: rpcError },
          },
          get: { ...common, summary: "MCP Streamable HTTP: the server's stream", operationId: 'mcpStream', responses: { '200': answer, default: rpcError } },
          delete: { ...common, summary: 'MCP Streamable HTTP: end the session', operationId: 'mcpEndSession', responses: { '200': { description: 'the session ended' }, default: rpcError } },
        };
      })(),
      '/v1/hooks/pre-tool-use': {
        post: { tags: ['doors'], summary: "Claude Code's PreToolUse hook", operationId: 'preToolUse', parameters: [header('X-Wayfinder-Agent', 'the agent (default: the session id)'), header('X-Wayfinder-Task', 'the task (default: the session id)'), tenantQuery], requestBody: { required: true, content: { 'application/json': { schema: HookInput } } }, responses: { '200': json(HookAnswer, 'the hook output'), ...errors('400', '401', '403', '429', '503') } },
      },
      '/v1/hooks/post-tool-use': {
        post: { tags: ['doors'], summary: "Claude Code's PostToolUse / PostToolUseFailure hook", operationId: 'postToolUse', parameters: [header('X-Wayfinder-Agent', 'the agent (default: the session id)'), header('X-Wayfinder-Task', 'the task (default: the session id)'), tenantQuery], requestBody: { required: true, content: { 'application/json': { schema: HookInput } } }, responses: { '200': json(HookAnswer, 'the hook output'), ...errors('400', '401', '403', '429', '503') } },
      },
      '/v1/agents': {
        get: {
          tags: ['query'],
          summary: "The tenant's agents",
          operationId: 'listAgents',
          parameters: [
            query('q', 'agents whose id or task id contains this text (case-insensitive)'),
            query('state', 'only agents in this state', { enum: ['working', 'looping', 'recovering', 'frozen', 'done'] }),
            query('task', 'only agents of this task'),
            query('detector', 'only agents this detector flagged', { enum: [...DETECTORS] }),
            query('sort', 'attention (default: frozen, looping, recovering, working, done), lastSeen, agentId or deviations', { enum: [...AGENT_SORTS] }),
            query('limit', `agents per page, 1 to ${MAX_AGENT_PAGE} (none and no cursor: every matching agent)`, { type: 'string', pattern: '^[0-9]+$' }),
            query('cursor', "the previous page's nextCursor"),
            tenantQuery,
          ],
          responses: { '200': json({ type: 'object', required: ['agents', 'total', 'nextCursor'], properties: { agents: { type: 'array', items: AnyObject }, total: { type: 'integer' }, nextCursor: { type: ['string', 'null'] } } }, 'one page of agent summaries'), ...errors('400', '401', '403') },
        },
      },
      '/v1/agents/{agentId}/timeline': {
        get: { tags: ['query'], summary: "An agent's timeline: steps, deviations, corrections and their outcome", operationId: 'agentTimeline', parameters: [agentId, tenantQuery], responses: { '200': json(AnyObject, 'the timeline'), ...errors('401', '403', '404') } },
      },
      '/v1/escalations': {
        get: { tags: ['query'], summary: "The tenant's escalations", operationId: 'listEscalations', parameters: [query('open', 'only open (true) or closed (false) ones', { enum: ['true', 'false'] }), tenantQuery], responses: { '200': json({ type: 'object', required: ['escalations'], properties: { escalations: { type: 'array', items: AnyObject } } }, 'escalations'), ...errors('400', '401', '403') } },
      },
      '/v1/fleet': {
        get: { tags: ['query'], summary: "The tenant's fleet now: agents by state", operationId: 'fleet', parameters: [tenantQuery], responses: { '200': json(AnyObject, 'the fleet view'), ...errors('401', '403') } },
      },
      '/v1/fleet/events': {
        get: {
          tags: ['query'],
          summary: "The tenant's fleet as Server-Sent Events: `record` (deviations, corrections, escalations, resumes, false-positive marks; `id` = ts in ms) and `fleet` samples (agents by state) every 2 s",
          operationId: 'fleetEvents',
          parameters: [query('task', 'only this task'), query('since', 'replay records from this time (epoch ms or ISO 8601; default now)'), header('Last-Event-ID', 'resume after this event id (takes precedence over since)'), tenantQuery],
          responses: { '200': { description: 'the event stream, held open', content: { 'text/event-stream': { schema: { type: 'string' } } } }, ...errors('400', '401', '403', '404', '429') },
        },
      },
      '/v1/keys': {
        get: { tags: ['keys'], summary: "The tenant's stored API keys, active and revoked (operator keys only)", operationId: 'listKeys', parameters: [tenantQuery], responses: { '200': json({ type: 'object', required: ['keys'], properties: { keys: { type: 'array', items: ref('KeyView') } } }, 'the keys, without their hashes'), ...errors('401', '403') } },
        post: {
          tags: ['keys'],
          summary: 'Create an API key of the tenant (operator keys only); the key is shown once, in this answer',
          operationId: 'createKey',
          parameters: [tenantQuery],
          requestBody: { required: false, content: { 'application/json': { schema: { type: 'object', additionalProperties: false, properties: { role: { enum: ['operator', 'viewer'] } } } } } },
          responses: { '201': json({ allOf: [ref('KeyView'), { type: 'object', required: ['key'], properties: { key: { type: 'string' } } }] }, 'the new key'), ...errors('400', '401', '403') },
        },
      },
      '/v1/keys/{keyId}': {
        delete: { tags: ['keys'], summary: "Revoke one of the tenant's keys at once (operator keys only)", operationId: 'revokeKey', parameters: [pathParam('keyId', 'the key id GET /v1/keys lists'), tenantQuery], responses: { '200': json({ type: 'object', properties: { revoked: { const: true }, keyId: { type: 'string' } } }, 'revoked'), ...errors('400', '401', '403', '404') } },
      },
      '/v1/tenants': {
        get: { tags: ['query'], summary: 'The tenants this key reads', operationId: 'listTenants', parameters: [tenantQuery], responses: { '200': json({ type: 'object', required: ['tenants'], properties: { tenants: { type: 'array', items: { type: 'string' } } } }, "the key's tenant; every tenant with history for the local operator"), ...errors('401', '403') } },
      },
      '/v1/deviations/{deviationId}/false-positive': {
        post: {
          tags: ['query'],
          summary: 'Mark a deviation a false positive',
          operationId: 'markFalsePositive',
          parameters: [pathParam('deviationId', "the deviation's eventId"), tenantQuery],
          responses: { '202': json({ type: 'object', properties: { markedFalsePositive: { const: true }, until: { type: 'string', format: 'date-time' }, pattern: AnyObject } }, "the pattern is suppressed for the agent for the policy's time"), ...errors('401', '403', '404') },
        },
      },
      '/v1/openapi.json': {
        get: { tags: ['meta'], summary: 'This description', operationId: 'openApi', security: [], responses: { '200': json(AnyObject, 'the OpenAPI 3.1 document') } },
      },
      '/health/live': {
        get: { tags: ['meta'], summary: 'Liveness', operationId: 'healthLive', security: [], responses: { '200': json({ type: 'object', properties: { status: { const: 'live' } } }, 'the server answers') } },
      },
      '/health/ready': {
        get: {
          tags: ['meta'],
          summary: "Readiness: the process's dependency checks",
          operationId: 'healthReady',
          security: [],
          responses: { '200': json(ref('ReadinessReport'), 'every check passed'), '503': json(ref('ReadinessReport'), 'a check failed or did not answer; each is named') },
        },
      },
      '/': dashboard('Fleet page', 'dashboardFleet', [tenantQuery]),
      '/agents/{agentId}': dashboard("An agent's page", 'dashboardAgent', [agentId, tenantQuery]),
      '/escalations': dashboard('Escalations page', 'dashboardEscalations', [tenantQuery]),
      '/policy': dashboard('Policy page', 'dashboardPolicy', [tenantQuery]),
      '/keys': dashboard("The tenant's API keys page (operators)", 'dashboardKeys', [tenantQuery]),
      '/dashboard/assets/{name}': {
        get: {
          tags: ['dashboard'],
          summary: "A dashboard page's script or the stylesheet (the pages run no inline script or style under their Content-Security-Policy)",
          operationId: 'dashboardAsset',
          security: [],
          parameters: [{ name: 'name', in: 'path', required: true, schema: { type: 'string', enum: ['fleet.js', 'agent.js', 'escalations.js', 'policy.js', 'keys.js', 'wayfinder.css'] } }],
          responses: { '200': { description: 'the script or stylesheet', content: { 'text/javascript': { schema: { type: 'string' } }, 'text/css': { schema: { type: 'string' } } } }, ...errors('404') },
        },
      },
      '/logout': {
        post: {
          tags: ['dashboard'],
          summary: "End the dashboard session (send the session's CSRF token in X-CSRF-Token)",
          operationId: 'logOut',
          security: [{ sessionCookie: [] }, {}],
          responses: { '303': { description: 'to the login form, the session ended and its cookie cleared', headers: { 'Set-Cookie': { schema: { type: 'string' } } } }, ...errors('403') },
        },
      },
      '/login': {
        get: { tags: ['dashboard'], summary: 'The login form', operationId: 'loginForm', security: [], responses: { '200': html('the form') } },
        post: {
          tags: ['dashboard'],
          summary: 'Exchange a key for a session cookie',
          operationId: 'logIn',
          security: [],
          requestBody: { required: true, content: { 'application/x-www-form-urlencoded': { schema: { type: 'object', required: ['key'], properties: { key: { type: 'string' } } } } } },
          responses: { '303': { description: 'to the fleet page, with the HttpOnly session cookie', headers: { 'Set-Cookie': { schema: { type: 'string' } } } }, '401': html('the form again: the key is not valid'), ...errors('403', '429') },
        },
      },
    },
    components: {
      securitySchemes: {
        bearerAuth: { type: 'http', scheme: 'bearer', description: "A tenant's API key (`wayfinder keys create`)" },
        sessionCookie: { type: 'apiKey', in: 'cookie', name: 'wf_session', description: "The dashboard's session (POST /login)" },
        wayfinderKey: { type: 'apiKey', in: 'header', name: 'X-Wayfinder-Key', description: "The LLM proxy's tenant key (`Authorization` belongs to the upstream)" },
      },
      schemas: {
        KeyView: { type: 'object', required: ['keyId', 'tenantId', 'role', 'createdAt', 'revokedAt'], properties: { keyId: { type: 'string' }, tenantId: { type: 'string' }, role: { enum: ['operator', 'viewer'] }, createdAt: { type: 'string', format: 'date-time' }, revokedAt: { type: ['string', 'null'], format: 'date-time' } } },
        StepEventInput: contract('StepEventInput', envelopeOptional(StepEvent)),
        TaskInput: contract('TaskInput', envelopeOptional(TaskSpec)),
        CognitiveMap: contract('CognitiveMap', CognitiveMap),
        Correction: contract('Correction', Correction),
        TenantPolicy: contract('TenantPolicy', TenantPolicy),
        TenantPolicyInput: contract('TenantPolicyInput', envelopeOptional(TenantPolicy)),
        AnchorDecisionRequest: contract('AnchorDecisionRequest', AnchorDecisionRequest),
        PolicyMergePatch,
        Problem,
        ReadinessReport,
      },
      responses: Object.fromEntries(
        Object.entries(ERROR_RESPONSES).map(([code, [name, description]]) => [name, { description, ...(code === '429' || code === '503' ? { headers: RETRY_AFTER } : {}), content: { 'application/json': { schema: ref('Problem') } } }]),
      ),
    },
  };
}

let built: Json | undefined;

/** The document (built once: generating the contracts' schemas takes a few milliseconds). */
export function gatewayOpenApi(): Json {
  built ??= buildDocument();
  return built;
}
