/**
 * The MCP servers the operator lets agents reach through the gateway's MCP door (`/v1/mcp/{server}`,
 * DESIGN §12): `WAYFINDER_MCP_SERVERS` is `name=url` pairs separated by commas. A tenant only ever names a
 * server; the URL is the operator's, so it is read and checked here, once, at boot.
 */

/** A server's name: one URL path segment, as agents write it in `/v1/mcp/{server}`. */
export const MCP_SERVER_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

export type McpServersResult = { ok: true; servers: Record<string, string> } | { ok: false; error: string };

/** `github=https://mcp.example.com/mcp,files=http://10.0.0.5:8080/mcp` → `{github: …, files: …}`. */
export function readMcpServers(text: string): McpServersResult {
  const servers: Record<string, string> = {};
  for (const entry of text.split(',').map((e) => e.trim())) {
    if (entry === '') continue;
    const at = entry.indexOf('=');
    if (at < 0) return { ok: false, error: `"${entry.slice(0, 80)}" is not name=url` };
    const name = entry.slice(0, at).trim();
    const url = entry.slice(at + 1).trim();
    if (!MCP_SERVER_NAME.test(name)) return { ok: false, error: `the server name "${name.slice(0, 80)}" must be 1–64 letters, digits, ".", "_" or "-", starting with a letter or digit` };
    if (Object.hasOwn(servers, name)) return { ok: false, error: `the server name "${name}" is given twice` };
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      return { ok: false, error: `the URL of server "${name}" is not a URL` };
    }
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return { ok: false, error: `the URL of server "${name}" must be http(s)` };
    if (parsed.username !== '' || parsed.password !== '') return { ok: false, error: `the URL of server "${name}" must not carry credentials (the agent's Authorization header passes through)` };
    servers[name] = parsed.href;
  }
  return { ok: true, servers };
}
