// MCP sessions per tenant: a session another tenant opened is refused, one nobody opened here passes, an
// ended one is forgotten, and a tenant opening many sessions forgets its own oldest, never another's.
import { McpSessions } from './mcp-sessions';

describe('MCP sessions per tenant', () => {
  it('allows the opener and refuses another tenant; unknown sessions pass', () => {
    const sessions = new McpSessions();
    sessions.opened('files', 's1', 'acme');
    expect(sessions.allows('files', 's1', 'acme')).toBe(true);
    expect(sessions.allows('files', 's1', 'globex')).toBe(false);
    expect(sessions.allows('github', 's1', 'globex')).toBe(true);
    expect(sessions.allows('files', 'never-seen', 'globex')).toBe(true);
    sessions.ended('files', 's1');
    expect(sessions.allows('files', 's1', 'globex')).toBe(true);
  });

  it('bounds each tenant by its own oldest sessions', () => {
    const sessions = new McpSessions(2);
    sessions.opened('files', 'g1', 'globex');
    for (const id of ['a1', 'a2', 'a3']) sessions.opened('files', id, 'acme');
    expect(sessions.allows('files', 'a1', 'globex')).toBe(true); // forgotten: acme's oldest
    expect(sessions.allows('files', 'a3', 'globex')).toBe(false);
    expect(sessions.allows('files', 'g1', 'acme')).toBe(false); // globex's kept
  });
});
