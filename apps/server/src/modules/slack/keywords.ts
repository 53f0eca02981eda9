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

/**
 * The keywords of a message for the word cloud: words (Unicode word segmentation), lower case, no stop
 * words, numbers or markup, at least 3 letters, reduced to their lemma. Each keyword once per message.
 */
export function keywordsOf(text: string): string[] {
  const out = new Set<string>();
  for (const { segment, isWordLike } of segmenter.segment(text.replace(MARKUP, ' '))) {
    if (!isWordLike) continue;
    const word = segment.toLowerCase().replace(/^'+|'+$/g, '');
    if (word.length < 3 || word.length > 40 || /\d/.test(word) || STOP.has(word) || word.includes("'"))
      continue;
    const base = lemma(word);
    if (base.length >= 3 && !STOP.has(base)) out.add(base);
  }
  return [...out];
}
