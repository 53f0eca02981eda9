import { eng } from 'stopword';
import lemmatizer from 'wink-lemmatizer';

// Chat filler that is not in the general English stop list but carries no topic.
const CHAT_STOP = [
  'yeah',
  'yes',
  'ok',
  'okay',
  'thanks',
  'thank',
  'lol',
  'hey',
  'hi',
  'hello',
  'pls',
  'please',
  'also',
  'just',
  'like',
  'get',
  'got',
  'will',
  'can',
  'one',
  'would',
  'could',
  'really',
  'think',
  'know',
  'see',
  'let',
  'make',
  'sure',
  'good',
  'great',
  'much',
  'well',
  'still',
  'going',
  'thing',
  'anyone',
  'everyone',
  'today',
  'tomorrow',
  'again',
  'now',
  'yet',
  'ever',
  'maybe',
  'actually',
  'probably',
];
const STOP = new Set([...eng, ...CHAT_STOP].map((w) => w.toLowerCase()));
const segmenter = new Intl.Segmenter('en', { granularity: 'word' });

/** Slack markup that is not words: mentions, channel links, URLs, emoji codes, code spans. */
const MARKUP = /<[@#!][^>]*>|<https?:[^>]*>|https?:\/\/\S+|:[a-z0-9_+-]+:|`[^`]*`/gi;

/** The dictionary form of a word: verbs for -ing/-ed forms, nouns otherwise (adjectives pass through). */
function lemma(word: string): string {
  if (/(ing|ed)$/.test(word) && word.length > 5) {
    const verb = lemmatizer.verb(word);
    if (verb !== word) return verb;
  }
  return lemmatizer.noun(word);
}

/** Printable ASCII and line breaks: the text the fast path below segments exactly like the ICU segmenter. */
const ASCII = /^[\x20-\x7e\t\n\r]*$/;
/**
 * Unicode word segmentation (UAX #29, as ICU does it) restricted to ASCII: letters, digits and `_` run
 * together; `.` `:` `'` join two letters, `.` `,` `;` `'` join two digits. It yields every word-like segment
 * (and lone underscores, which the filters below drop anyway) ~20x faster than Intl.Segmenter, which costs
 * ~45 us per chat line and was the largest single cost of applying a message. keywords.test.ts checks both
 * paths agree on random ASCII.
 */
const ASCII_WORD =
  /[A-Za-z0-9_]+(?:(?:(?<=[A-Za-z])[.:'](?=[A-Za-z])|(?<=[0-9])[.,;'](?=[0-9]))[A-Za-z0-9_]+)*/g;

/** The word-like segments of a text. */
export function wordsOf(text: string): string[] {
  if (ASCII.test(text)) return text.match(ASCII_WORD) ?? [];
  return segmentedWords(text);
}

/** The word-like segments as Intl.Segmenter finds them (any script). */
export function segmentedWords(text: string): string[] {
  const out: string[] = [];
  for (const { segment, isWordLike } of segmenter.segment(text)) if (isWordLike) out.push(segment);
  return out;
}

/**
 * The keywords of a message for the word cloud: words (Unicode word segmentation), lower case, no stop
 * words, numbers or markup, at least 3 letters, reduced to their lemma. Each keyword once per message.
 */
export function keywordsOf(text: string): string[] {
  const out = new Set<string>();
  for (const segment of wordsOf(text.replace(MARKUP, ' '))) {
    const base = keywordOf(segment);
    if (base) out.add(base);
  }
  return [...out];
}

/** Words seen recently and what they count as ('' for none): chat repeats its words, lemmas cost ~1 us. */
const known = new Map<string, string>();

/** The keyword one word-like segment counts as, or '' when it is not one. */
function keywordOf(segment: string): string {
  let base = known.get(segment);
  if (base !== undefined) return base;
  const word = segment.toLowerCase().replace(/^'+|'+$/g, '');
  base = '';
  if (!(word.length < 3 || word.length > 40 || /\d/.test(word) || STOP.has(word) || word.includes("'"))) {
    const lemmaOf = lemma(word);
    if (lemmaOf.length >= 3 && !STOP.has(lemmaOf)) base = lemmaOf;
  }
  if (known.size >= 20_000) known.clear();
  known.set(segment, base);
  return base;
}
