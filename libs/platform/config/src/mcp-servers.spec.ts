// WAYFINDER_MCP_SERVERS: name=url pairs the operator sets; every bad entry is refused naming it.
import { loadConfig } from './config';
import { readMcpServers } from './mcp-servers';

describe('WAYFINDER_MCP_SERVERS', () => {
  it('reads name=url pairs, spaces and empty entries aside', () => {
    expect(readMcpServers(' github = https://mcp.example.com/mcp , ,files=http://10.0.0.5:8080/mcp')).toEqual({ ok: true, servers: { github: 'https://mcp.example.com/mcp', files: 'http://10.0.0.5:8080/mcp' } });
    expect(readMcpServers('')).toEqual({ ok: true, servers: {} });
  });

  it.each([
    ['no "="', 'https://mcp.example.com', /is not name=url/],
    ['a name that is no path segment', 'a/b=https://x.example', /server name "a\/b"/],
    ['a name given twice', 'a=https://x.example,a=https://y.example', /given twice/],
    ['a URL that is none', 'a=not a url', /server "a" is not a URL/],
    ['another scheme', 'a=file:///etc/passwd', /must be http\(s\)/],
    ['credentials in the URL', 'a=https://u:p@x.example/mcp', /must not carry credentials/],
  ])('refuses %s', (_what, text, error) => {
    const read = readMcpServers(text);
    expect(read.ok).toBe(false);
    if (!read.ok) expect(read.error).toMatch(error);
  });

  it('is part of the configuration, its errors naming the variable', () => {
    expect(loadConfig({ WAYFINDER_MCP_SERVERS: 'tools=http://127.0.0.1:9/mcp' }).mcpServers).toEqual({ tools: 'http://127.0.0.1:9/mcp' });
    expect(loadConfig({}).mcpServers).toEqual({});
    expect(() => loadConfig({ WAYFINDER_MCP_SERVERS: 'tools=ftp://x' })).toThrow(/WAYFINDER_MCP_SERVERS: the URL of server "tools" must be http\(s\)/);
  });
});
