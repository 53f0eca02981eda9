import { describe, expect, it } from 'vitest';
import { keywordsOf } from './keywords.ts';

describe('keywordsOf', () => {
  it('keeps topic words as lemmas and drops stop words, markup and numbers', () => {
    expect(
      keywordsOf('The deployments were failing again, <@U123> see https://x.io :tada: in <#C1|general> 2024'),
    ).toEqual(['deployment', 'fail']);
  });
  it('counts a keyword once per message and lower-cases it', () => {
    expect(keywordsOf('Release! release notes for the RELEASE')).toEqual(['release', 'note']);
  });
  it('returns nothing for chat filler', () => {
    expect(keywordsOf('ok thanks lol, yes I think so')).toEqual([]);
  });
});
