/**
 * What a title's words may be compared by (docs/api/price-list-review.md, "Which rates are comparable"): titles
 * normalised to words, and which runs of those words are phrases at all. After 18F CALC's price-list analysis,
 * which left the numerals 1–9 and i–ix out of its phrases and asked for 4 characters at least: a level or a filler
 * word says nothing of the work, so "Accountant 3" is never compared with every "… 3", nor "Cloud Tier I Support"
 * with every title holding an "I".
 */

/** Lower case, every run of characters that are not letters or digits one space, trimmed. */
export const normaliseTitle = (title: string): string =>
  title
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();

/** Words of a seniority or grade: a phrase of these alone (with numerals and filler words) is no phrase. */
export const LEVEL_WORDS: ReadonlySet<string> = new Set([
  'sr',
  'senior',
  'jr',
  'junior',
  'lead',
  'level',
  'lvl',
  'principal',
  'mid',
  'entry',
  'intermediate',
  'journeyman',
  'apprentice',
  'expert',
  'staff',
  'tier',
  'grade',
]);

/** Words that join others and name nothing (the English stop words CALC's search index dropped, those seen in titles). */
export const FILLER_WORDS: ReadonlySet<string> = new Set(['a', 'an', 'and', 'or', 'of', 'the', 'for', 'to', 'in', 'on', 'at', 'by', 'with']);

/** Arabic numerals, and roman ones (a run of i, v and x: `ii`, `iv`, `xii`). */
const NUMERAL = /^(\d+|[ivx]+)$/;

/** The fewest characters a phrase has, its words joined by one space (`data` is one; `it`, `qa`, `dba` are not). */
export const MIN_PHRASE_CHARACTERS = 4;

/** A word that names no work by itself: a numeral, a level word or a filler word. */
export const isLevelOrFiller = (word: string): boolean => NUMERAL.test(word) || LEVEL_WORDS.has(word) || FILLER_WORDS.has(word);

/** Whether these words (a run of a normalised title's) may find comparables: 4 characters or more, and not only level or filler words. */
export const isPhrase = (words: readonly string[]): boolean => words.join(' ').length >= MIN_PHRASE_CHARACTERS && words.some((word) => !isLevelOrFiller(word));
