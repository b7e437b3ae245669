/** Rule `outputFormat`: "Only output JSON", "最终输出必须为 JSON", "answer as a Markdown table". */
import { checkOutput } from './constraint-check';
import { compileConstraints } from './constraint-rules';

const one = (text: string) => compileConstraints([{ id: 'c3', text, hard: true }])[0];

describe('outputFormat rule', () => {
  it('compiles "Only output JSON" and "最终输出必须为 JSON" to JSON', () => {
    expect(one('Only output JSON').rules).toEqual([{ kind: 'outputFormat', format: 'json' }]);
    expect(one('最终输出必须为 JSON').rules).toEqual([{ kind: 'outputFormat', format: 'json' }]);
  });

  it('flags a final output that is not JSON (ZH constraint, prose output)', () => {
    expect(checkOutput(one('最终输出必须为 JSON'), '结果如下：共有3个商品。')?.reason).toBe('the final output is not valid JSON');
    expect(checkOutput(one('Only output JSON'), '{"items": [1, 2,]}')).toBeDefined();
  });

  it('accepts JSON, fenced or not (EN and ZH constraints)', () => {
    expect(checkOutput(one('最终输出必须为 JSON'), '{"items": [{"name": "杯子", "price": 3}]}')).toBeUndefined();
    expect(checkOutput(one('Only output JSON'), '```json\n[{"a": 1}]\n```')).toBeUndefined();
  });

  it('checks a Markdown table (EN and ZH)', () => {
    const en = one('Answer as a Markdown table');
    const zh = one('输出必须为 Markdown 表格');
    expect(en.rules).toEqual([{ kind: 'outputFormat', format: 'markdownTable' }]);
    expect(zh.rules).toEqual([{ kind: 'outputFormat', format: 'markdownTable' }]);
    const table = '| name | price |\n| --- | --- |\n| cup | 3 |';
    expect(checkOutput(en, table)).toBeUndefined();
    expect(checkOutput(zh, table)).toBeUndefined();
    expect(checkOutput(en, 'cup costs 3')).toBeDefined();
  });

  it('compiles no format rule for "Do not output JSON" or a constraint about something else', () => {
    expect(one('Do not output JSON').rules).toEqual([]);
    expect(one('Only use public sources').rules).toEqual([]);
  });
});
