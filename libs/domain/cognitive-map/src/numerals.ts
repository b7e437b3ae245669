/**
 * Number words in goal texts: Arabic digits ("3,000", "3k"), Chinese numerals ("三千", "十五", "两") and
 * small English number words ("five", "twenty"). Only what goals actually say; anything else is not a number.
 */

const CN_DIGITS: Record<string, number> = {
  零: 0, 〇: 0, 一: 1, 二: 2, 两: 2, 三: 3, 四: 4, 五: 5, 六: 6, 七: 7, 八: 8, 九: 9,
};
const CN_UNITS: Record<string, number> = { 十: 10, 百: 100, 千: 1000, 万: 10000 };

/**
 * Regex source matching a Chinese numeral (used inside larger patterns). Bounded: an unbounded run
 * inside a scanning pattern backtracks quadratically on a long run of numeral characters.
 */
export const CN_NUMERAL = '[零〇一二两三四五六七八九十百千万]{1,8}';

/** Parses a Chinese numeral such as 三千, 十五, 二十, 一万二千; undefined when it is not one. */
export function parseChineseNumeral(text: string): number | undefined {
  if (!text || !new RegExp(`^${CN_NUMERAL}$`).test(text)) return undefined;
  let total = 0;
  let section = 0;
  let digit: number | undefined;
  for (const ch of text) {
    if (ch in CN_DIGITS) {
      digit = CN_DIGITS[ch];
      continue;
    }
    const unit = CN_UNITS[ch];
    if (unit === 10000) {
      total += (section + (digit ?? 0)) * unit;
      section = 0;
    } else {
      // "十五" means 15: a unit without a digit before it counts once.
      section += (digit ?? 1) * unit;
    }
    digit = undefined;
  }
  return total + section + (digit ?? 0);
}

const EN_WORDS: Record<string, number> = {
  zero: 0, one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10,
  eleven: 11, twelve: 12, thirteen: 13, fourteen: 14, fifteen: 15, sixteen: 16, seventeen: 17,
  eighteen: 18, nineteen: 19, twenty: 20, thirty: 30, forty: 40, fifty: 50, hundred: 100, dozen: 12,
};

/** Regex source matching an English number word. */
export const EN_NUMBER_WORD = `(?:${Object.keys(EN_WORDS).join('|')})`;

/** Parses "3,000", "2.5", "3k", "1万", "3千", "five", "三千"; undefined when it is not a number. */
export function parseNumber(raw: string): number | undefined {
  const text = raw.trim().toLowerCase();
  const word = EN_WORDS[text];
  if (word !== undefined) return word;
  const cn = parseChineseNumeral(text);
  if (cn !== undefined) return cn;
  const m = /^(\d{1,3}(?:,\d{3})+|\d+(?:\.\d+)?)\s*(k|千|万)?$/.exec(text);
  if (!m) return undefined;
  const base = Number(m[1].replace(/,/g, ''));
  if (!Number.isFinite(base)) return undefined;
  const factor = m[2] === 'k' || m[2] === '千' ? 1000 : m[2] === '万' ? 10000 : 1;
  return base * factor;
}
