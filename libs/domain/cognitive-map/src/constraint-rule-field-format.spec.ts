/** Rule `fieldFormat`: a field of the final output must have a format ("dates must be YYYY-MM-DD"). */
import { checkOutput } from './constraint-check';
import { compileConstraints } from './constraint-rules';

const one = (text: string) => compileConstraints([{ id: 'c4', text, hard: true }])[0];

describe('fieldFormat rule', () => {
  it('compiles an English field format and checks it in JSON output', () => {
    const c = one('The published_at field must be in YYYY-MM-DD format');
    expect(c.rules).toEqual([{ kind: 'fieldFormat', field: 'published_at', format: 'date' }]);
    expect(checkOutput(c, '[{"published_at": "2024-03-01"}, {"published_at": "March 2024"}]')?.reason).toContain('published_at');
    expect(checkOutput(c, '[{"published_at": "2024-03-01"}]')).toBeUndefined();
  });

  it('compiles a Chinese field format and checks key: value text', () => {
    const c = one('price 字段必须为数字');
    expect(c.rules).toEqual([{ kind: 'fieldFormat', field: 'price', format: 'number' }]);
    expect(checkOutput(c, 'name: 杯子\nprice: 三元')).toBeDefined();
    expect(checkOutput(c, 'name: 杯子\nprice: 3.5')).toBeUndefined();
  });

  it('says nothing when the output does not have the field', () => {
    expect(checkOutput(one('The email field must be an email address'), '{"name": "x"}')).toBeUndefined();
  });
});
