/**
 * The durable form of the memory trails (agent-trail-codec): version 3 gives back every field it was
 * given, writes a milestone id repeated by consecutive entries once, its incrementally kept log bytes equal
 * a fresh encoding whatever was appended and trimmed, and documents of versions 2 (binary) and 1 (JSON),
 * written by earlier builds and still in the stores, read as the same trails.
 */
import fc from 'fast-check';
import type { CognitiveMap } from '@wayfinder/contracts';
import { renderState } from '@wayfinder/cognitive-map';
import { addReference, appendLog, concludeWith, newTrail, trailState, type AgentTrail } from './agent-trail';
import { decodeAgentTrails, encodeAgentTrails, encodeAgentTrailsV1, TrailLogBytes, type AgentTrailsDocument } from './agent-trail-codec';
import type { OperationLogEntry } from './context-assembly';

const KINDS: OperationLogEntry['kind'][] = ['action', 'observation', 'message', 'feedback', 'milestone', 'compaction', 'plan'];
const text = fc.oneof(fc.string({ maxLength: 60 }), fc.string({ unit: 'grapheme', maxLength: 200 }), fc.constant('x'.repeat(6_000)));

const entryOf = (t: fc.Arbitrary<string>) =>
  fc.record(
    {
      seq: fc.integer({ min: -1, max: 2 ** 40 }),
      // Mostly a few ids, so that consecutive entries share theirs (written once) and trims cut such runs.
      milestoneId: fc.option(fc.oneof({ arbitrary: fc.constantFrom('collect', 'write', ''), weight: 4 }, { arbitrary: fc.string({ maxLength: 30 }), weight: 1 }), { nil: null }),
      kind: fc.constantFrom(...KINDS),
      text: t,
      conclusion: t,
    },
    { requiredKeys: ['seq', 'milestoneId', 'kind', 'text'] },
  );
const entry = entryOf(text);
const shortEntry = entryOf(fc.string({ unit: 'grapheme', maxLength: 50 }));

const hex = (bytes: Uint8Array): string => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('hex');

function fullTrail(log: OperationLogEntry[]): AgentTrail {
  return {
    runId: 'run-1',
    lastSeq: 41,
    position: { milestoneId: 'collect', completed: ['plan'], progress: 0.5, confidence: 0.75, method: 'similarity' },
    anchors: { competitors: { count: 3, items: ['alpha', 'beta', 'gamma'] } } as unknown as AgentTrail['anchors'],
    conclusion: 'Alpha costs 19 €, Beta 29 € — both public prices',
    references: ['https://alpha.example/pricing', '第二个来源'],
    lastFailure: 'the draft cited a private source',
    checkpointed: new Set(['plan', 'collect']),
    lastStateText: `STATE\nstage: 2/3 — collect\n${'line\n'.repeat(50)}`,
    keptAliveAt: 1_764_590_400_123,
    log,
  };
}

describe('the memory trail document', () => {
  it('version 3 gives back every field, for any log', () => {
    fc.assert(
      fc.property(fc.array(entry, { maxLength: 70 }), (log) => {
        const doc: AgentTrailsDocument = { tenantId: 'acme:1', agentId: 'a%1', tasks: [['report', fullTrail(log)], ['bare', newTrail([])]] };
        expect(decodeAgentTrails(encodeAgentTrails(doc))).toEqual(doc);
      }),
      { numRuns: 50 },
    );
  });

  it('keeps the log bytes equal to a fresh encoding while entries are appended, trimmed or the log replaced', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof({ arbitrary: shortEntry.map((e) => ({ append: e })), weight: 8 }, { arbitrary: fc.constant({ replace: true }), weight: 1 }), { minLength: 50, maxLength: 130 }), (ops) => {
        const trail = newTrail([]);
        const bytes = new TrailLogBytes();
        const doc: AgentTrailsDocument = { tenantId: 't', agentId: 'a', tasks: [['task', trail]] };
        for (const op of ops) {
          if ('append' in op) appendLog(trail, op.append);
          else trail.log = trail.log.slice(1).map((e) => ({ ...e }));
          // As hex: toEqual over thousands of bytes element by element made this case take half a minute.
          expect(hex(encodeAgentTrails(doc, () => bytes))).toBe(hex(encodeAgentTrails(doc)));
        }
        expect(decodeAgentTrails(encodeAgentTrails(doc, () => bytes)).tasks[0][1].log).toEqual(trail.log);
      }),
      { numRuns: 25 },
    );
  });

  it('writes the milestone id of consecutive entries once, and again after another milestone or none', () => {
    const id = 'm1-read-every-part-of-the';
    const log: OperationLogEntry[] = Array.from({ length: 60 }, (_, i) => ({ seq: i, milestoneId: i === 30 ? null : i === 40 ? 'm2' : id, kind: 'action', text: `read part ${i}` }));
    const trail = { ...newTrail([]), log };
    const text = Buffer.from(encodeAgentTrails({ tenantId: 't', agentId: 'a', tasks: [['task', trail]] })).toString('latin1');
    expect(text.split(id).length - 1).toBe(3); // entries 0, 31 and 41
    expect(text.split('m2').length - 1).toBe(1);
    const bytes = new TrailLogBytes();
    const doc: AgentTrailsDocument = { tenantId: 't', agentId: 'a', tasks: [['task', trail]] };
    encodeAgentTrails(doc, () => bytes);
    trail.log = log.slice(5); // the new first entry's milestone was "the previous entry's", which is gone
    expect(decodeAgentTrails(encodeAgentTrails(doc, () => bytes)).tasks[0][1].log).toEqual(log.slice(5));
  });

  it('reads a version 2 document (binary, written by the previous build) as the same trails', () => {
    // encodeAgentTrails of main 713eab1 for this document.
    const v2 = Buffer.from(
      'V1QCBGFjbWUCYTEBBnJlcG9ydAZydW4tMQbmAHsibWlsZXN0b25lSWQiOiJjb2xsZWN0IiwiY29tcGxldGVkIjpbInBsYW4iXSwicHJvZ3Jlc3MiOjAuNSwiY29uZmlkZW5jZSI6MC43NSwibWV0aG9kIjoic2ltaWxhcml0eSJ9ABNBbHBoYSBjb3N0cyAxOSDigqwBHWh0dHBzOi8vYWxwaGEuZXhhbXBsZS9wcmljaW5nF2NpdGVkIGEgcHJpdmF0ZSBzb3VyY2UBBHBsYW4dU1RBVEUKc3RhZ2U6IDIvMyDigJQgY29sbGVjdPzkos6tMwUCBXBsYW4GD3BsYW4gdGhlIHJlcG9ydAAECGNvbGxlY3QAEnNlYXJjaCBjb21wZXRpdG9ycwAGCGNvbGxlY3QBBzMgZm91bmQACAADDG5vIFdpa2lwZWRpYQ1ubyBXaWtpcGVkaWEKCGNvbGxlY3QCEkFscGhhIGNvc3RzIDE5IOKCrAA=',
      'base64',
    );
    const doc: AgentTrailsDocument = {
      tenantId: 'acme',
      agentId: 'a1',
      tasks: [
        [
          'report',
          {
            runId: 'run-1',
            lastSeq: 3,
            position: { milestoneId: 'collect', completed: ['plan'], progress: 0.5, confidence: 0.75, method: 'similarity' },
            conclusion: 'Alpha costs 19 €',
            references: ['https://alpha.example/pricing'],
            lastFailure: 'cited a private source',
            checkpointed: new Set(['plan']),
            lastStateText: 'STATE\nstage: 2/3 — collect',
            keptAliveAt: 1_764_590_400_123,
            log: [
              { seq: 1, milestoneId: 'plan', kind: 'plan', text: 'plan the report' },
              { seq: 2, milestoneId: 'collect', kind: 'action', text: 'search competitors' },
              { seq: 3, milestoneId: 'collect', kind: 'observation', text: '3 found' },
              { seq: 4, milestoneId: null, kind: 'feedback', text: 'no Wikipedia', conclusion: 'no Wikipedia' },
              { seq: 5, milestoneId: 'collect', kind: 'message', text: 'Alpha costs 19 €' },
            ],
          },
        ],
      ],
    };
    expect(v2[2]).toBe(2);
    expect(decodeAgentTrails(new Uint8Array(v2))).toEqual(doc);
    const v3 = encodeAgentTrails(doc);
    expect(v3[2]).toBe(3);
    expect(v3.length).toBe(v2.length - 'collect'.length); // the third entry's id, now "the previous entry's"
    expect(decodeAgentTrails(v3)).toEqual(doc);
  });

  it('reads a version 1 (JSON) document as the same trails', () => {
    const trail = fullTrail([{ seq: 1, milestoneId: 'collect', kind: 'action', text: 'search competitors' }, { seq: 2, milestoneId: null, kind: 'feedback', text: 'no Wikipedia', conclusion: 'no Wikipedia' }]);
    const doc: AgentTrailsDocument = { tenantId: 'acme', agentId: 'a1', tasks: [['report', trail]] };
    const v1 = encodeAgentTrailsV1(doc);
    expect(new TextDecoder().decode(v1).startsWith('{"v":1,')).toBe(true);
    expect(decodeAgentTrails(v1)).toEqual(doc);
    expect(decodeAgentTrails(encodeAgentTrails(decodeAgentTrails(v1)))).toEqual(doc);
  });

  it('refuses a truncated document, trailing bytes and an unknown version', () => {
    const bytes = encodeAgentTrails({ tenantId: 't', agentId: 'a', tasks: [['task', fullTrail([{ seq: 1, milestoneId: null, kind: 'plan', text: 'plan' }])]] });
    expect(() => decodeAgentTrails(bytes.subarray(0, bytes.length - 3))).toThrow(/truncated/);
    expect(() => decodeAgentTrails(new Uint8Array([...bytes, 0]))).toThrow(/trailing/);
    expect(() => decodeAgentTrails(new Uint8Array([0x57, 0x54, 9]))).toThrow(/version 9/);
    expect(() => decodeAgentTrails(new TextEncoder().encode('{"v":7,"tasks":[]}'))).toThrow(/version 7/);
    expect(() => decodeAgentTrails(new Uint8Array([1, 2, 3]))).toThrow(/not a trail document/);
    // A first entry whose milestone is "the previous entry's": ends seq 1, milestone, kind, text 'p', no conclusion.
    const one = encodeAgentTrails({ tenantId: 't', agentId: 'a', tasks: [['task', { ...newTrail([]), log: [{ seq: 1, milestoneId: null, kind: 'plan', text: 'p' }] }]] });
    expect([...one.subarray(one.length - 6)]).toEqual([2, 0, 6, 1, 0x70, 0]);
    const broken = one.slice();
    broken[broken.length - 5] = 1;
    expect(() => decodeAgentTrails(broken)).toThrow(/refers to a milestone before it/);
  });
});

describe('STATE kept on the trail', () => {
  const map = (version: number): CognitiveMap => ({
    schema: 'wayfinder.map.v1', eventId: `m${version}`, tenantId: 't', ts: '2026-01-01T00:00:00.000Z', taskId: 'task', version,
    goal: 'Write a market report', targetState: 'a report',
    milestones: [
      { id: 'collect', description: 'collect the competitors', dependsOn: [], validator: { type: 'marker' } },
      { id: 'write', description: `write the report (v${version})`, dependsOn: ['collect'], validator: { type: 'marker' } },
    ],
    anchors: [], constraints: [],
  });

  it('is what renderState gives for the trail, whatever changed since the last step', () => {
    const maps = [map(1), map(2)];
    const change = fc.oneof(
      fc.record({ map: fc.integer({ min: 0, max: 1 }) }),
      fc.record({ at: fc.constantFrom('collect', 'write', null), completed: fc.subarray(['collect', 'write']) }),
      fc.record({ conclude: fc.string({ maxLength: 20 }), asReference: fc.boolean() }),
      fc.record({ reference: fc.constantFrom('r1', 'r2', 'r3') }),
      fc.record({ failure: fc.option(fc.constantFrom('rolled back', 'replanned'), { nil: undefined }) }),
      fc.constant({ same: true }),
    );
    fc.assert(
      fc.property(fc.array(change, { maxLength: 60 }), (changes) => {
        const trail = newTrail([]);
        trail.position = { milestoneId: 'collect', completed: [], progress: 0, confidence: 1, method: 'signal' };
        let current = maps[0];
        for (const c of changes) {
          if ('map' in c) current = maps[c.map];
          else if ('at' in c) trail.position = { milestoneId: c.at, completed: c.completed, progress: 0.5, confidence: 0.5, method: 'signal' };
          else if ('conclude' in c) concludeWith(trail, c.conclude, c.asReference);
          else if ('reference' in c) addReference(trail, c.reference);
          else if ('failure' in c) trail.lastFailure = c.failure;
          const expected = renderState({
            map: current,
            position: trail.position,
            ...(trail.conclusion !== undefined && { conclusion: trail.conclusion }),
            ...(trail.references.length > 0 && { references: trail.references }),
            ...(trail.lastFailure !== undefined && { lastFailure: trail.lastFailure }),
          });
          expect(trailState(trail, current)).toBe(expected);
        }
      }),
      { numRuns: 100 },
    );
  });
});
