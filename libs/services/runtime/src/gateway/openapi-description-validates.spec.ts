// Issue #31: the gateway serves an OpenAPI 3.1 description at /v1/openapi.json, without a key, and a real
// validator (@seriousme/openapi-schema-validator, which checks the document against the OpenAPI 3.1
// schema and resolves every $ref) finds it valid, while it refuses a copy with an operation broken.
// The validator is an ES module: it runs in a child node process, fed the document on stdin.
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import type { RunningServices } from '../runtime';
import { call, startWithGateway } from './gateway.testing';

const root = join(__dirname, '..', '..', '..', '..', '..');

const VALIDATE = `
const { pathToFileURL } = require('node:url');
let input = '';
process.stdin.on('data', (chunk) => (input += chunk));
process.stdin.on('end', async () => {
  const { Validator } = await import(pathToFileURL(require.resolve('@seriousme/openapi-schema-validator')).href);
  const validator = new Validator();
  const result = await validator.validate(JSON.parse(input));
  process.stdout.write(JSON.stringify({ valid: result.valid, errors: result.errors, version: validator.version }));
});`;

function validate(document: unknown): Promise<{ valid: boolean; errors?: unknown; version: string }> {
  return new Promise((resolve, reject) => {
    const child = execFile(process.execPath, ['-e', VALIDATE], { cwd: root, encoding: 'utf8' }, (error, stdout, stderr) => {
      if (error) return reject(new Error(`the validator failed: ${stderr || error.message}`));
      resolve(JSON.parse(stdout));
    });
    child.stdin?.end(JSON.stringify(document));
  });
}

describe('the OpenAPI description of the gateway', () => {
  let running: RunningServices;
  let base: string;

  beforeAll(async () => {
    running = await startWithGateway({ WAYFINDER_API_KEYS: 'acme:acme-secret-key' });
    base = running.gateway?.url ?? '';
  });
  afterAll(async () => {
    await running?.stop();
  });

  it('is served without a key and is a valid OpenAPI 3.1 document', async () => {
    expect((await call(base, 'GET', '/v1/policy')).status).toBe(401);
    const served = await call(base, 'GET', '/v1/openapi.json');
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toMatch(/^application\/json/);
    expect(served.body.openapi).toBe('3.1.0');
    const result = await validate(served.body);
    expect(result).toMatchObject({ version: '3.1' });
    expect(result.errors).toBeUndefined();
    expect(result.valid).toBe(true);
  });

  it('takes its bodies from the contracts: a policy field and the step kinds are described', async () => {
    const { body } = await call(base, 'GET', '/v1/openapi.json');
    const text = JSON.stringify(body.components.schemas);
    expect(text).toContain('"falsePositiveSuppressMs"');
    for (const kind of ['action', 'observation', 'message', 'milestone', 'feedback', 'compaction', 'plan']) expect(text).toContain(`"const":"${kind}"`);
    // Requests may leave out the envelope the gateway fills; the stored policy has it.
    const required = (name: string) => JSON.stringify(body.components.schemas[name]).match(/"required":\[[^\]]*\]/g)?.join() ?? '';
    expect(required('TenantPolicy')).toContain('"eventId"');
    expect(required('TenantPolicyInput')).not.toContain('"eventId"');
  });

  it('is refused by the validator once a path parameter is optional, the title is gone or a $ref points nowhere', async () => {
    const { body } = await call(base, 'GET', '/v1/openapi.json');
    const optionalPathParameter = structuredClone(body);
    optionalPathParameter.paths['/v1/agents/{agentId}/resume'].post.parameters[0].required = false;
    expect((await validate(optionalPathParameter)).valid).toBe(false);
    const untitled = structuredClone(body);
    delete untitled.info.title;
    expect((await validate(untitled)).valid).toBe(false);
    const dangling = structuredClone(body);
    dangling.paths['/v1/policy'].get.responses['200'].content['application/json'].schema = { $ref: '#/components/schemas/Nowhere' };
    expect((await validate(dangling)).valid).toBe(false);
  });
});
