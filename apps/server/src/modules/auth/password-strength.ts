import { ZxcvbnFactory, type ZxcvbnResult } from '@zxcvbn-ts/core';
import * as common from '@zxcvbn-ts/language-common';

import { cutText } from '@flywheel/shared/text';
/**
 * Password strength with zxcvbn-ts and its offline dictionaries (the most common passwords, names, keyboard
 * patterns). A password must score at least MIN_SCORE of 4: "safely unguessable" for an online attacker
 * and a slow-hash offline one.
 */
export const MIN_PASSWORD_SCORE = 3;

let factory: ZxcvbnFactory | undefined;
const checker = () =>
  (factory ??= new ZxcvbnFactory({
    dictionary: { ...common.dictionary },
    graphs: common.adjacencyGraphs,
  }));

// zxcvbn-ts names its findings; the English words for the ones a person can act on.
const WARNINGS: Record<string, string> = {
  straightRow: 'it is a straight row of keys',
  keyPattern: 'it is a short keyboard pattern',
  simpleRepeat: 'it repeats characters like "aaa"',
  extendedRepeat: 'it repeats a pattern like "abcabc"',
  sequences: 'it is a sequence like "abc" or "6543"',
  recentYears: 'it uses a recent year',
  dates: 'it uses a date',
  topTen: 'it is one of the ten most used passwords',
  topHundred: 'it is one of the hundred most used passwords',
  common: 'it is a commonly used password',
  similarToCommon: 'it is a common password with small changes',
  wordByItself: 'a single word is easy to guess',
  namesByThemselves: 'a name on its own is easy to guess',
  commonNames: 'common names are easy to guess',
  userInputs: 'it contains your name or e-mail address',
  pwned: 'it appeared in a data breach',
};

function reason(result: ZxcvbnResult): string {
  const warning = result.feedback.warning ? WARNINGS[result.feedback.warning] : undefined;
  return warning ?? 'it would be guessed quickly';
}

/**
 * Why a password is too weak, as a sentence for the signup and reset forms, or null when it is strong
 * enough. `userInputs` (e-mail, username) count as known words.
 */
export function weakPasswordReason(password: string, userInputs: string[] = []): string | null {
  const inputs = userInputs.flatMap((v) => [v, ...v.split(/[@.\s_-]+/)]).filter((v) => v.length >= 3);
  const result = checker().check(cutText(password, 100), inputs);
  if (result.score >= MIN_PASSWORD_SCORE) return null;
  return `This password is too easy to guess: ${reason(result)}. Use a few unrelated words, or a longer mix of letters, numbers and symbols.`;
}
