import { parseChineseNumeral, parseNumber } from './numerals';

describe('numerals', () => {
  it.each([
    ['3,000', 3000],
    ['2.5', 2.5],
    ['3k', 3000],
    ['1万', 10000],
    ['3千', 3000],
    ['five', 5],
    ['Twenty', 20],
    ['三千', 3000],
    ['十五', 15],
    ['二十', 20],
    ['两', 2],
    ['一万二千', 12000],
    ['三百零五', 305],
  ])('%s → %d', (text, value) => {
    expect(parseNumber(text)).toBe(value);
  });

  it.each(['', 'abc', '3x', '1,00', '十a'])('%j is not a number', (text) => {
    expect(parseNumber(text)).toBeUndefined();
  });

  it('rejects non-numerals in the Chinese parser', () => {
    expect(parseChineseNumeral('数据')).toBeUndefined();
  });
});
