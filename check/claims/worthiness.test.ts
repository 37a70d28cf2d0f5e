import { describe, expect, it } from 'vitest';
import { tokenize } from './tokens';
import { judgeSentence, quotedText } from './worthiness';

const judge = (s: string) => {
  const j = judgeSentence(s, tokenize(s));
  return j.worthy ? 'claim' : j.reason;
};

describe('judgeSentence', () => {
  it.each([
    ['The central bank raised its main rate to 4.5% on Thursday.', 'claim'],
    ['Nike opened a store in Lagos.', 'claim'],
    ['Is the central bank right to raise rates?', 'question'],
    ['Why did nobody see this coming', 'question'],
    ['I think the bank has lost its way.', 'opinion'],
    ['The government should scrap the tax.', 'opinion'],
    ['It is a disgrace that the line is still closed.', 'opinion'],
    ['What a wonderful day it was!', 'opinion'],
    ['What a day!', 'opinion'],
    ['"We are thrilled with the result," said Ms Okafor.', 'feeling'],
    ['"Our team was outstanding and we could win it all," the coach said.', 'opinion'],
    ['"We sold 20,000 copies in the first week," the publisher said.', 'claim'],
    ['The mood in the town has changed.', 'no_detail'],
    ['Read more: the full list of winners', 'boilerplate'],
    ['Follow us on Twitter for updates.', 'boilerplate'],
    ['Copyright 2024 Example Media. All rights reserved.', 'boilerplate'],
    ['Reporting by Jane Doe; Editing by John Roe', 'boilerplate'],
    ['Image caption: the bridge at dawn', 'boilerplate'],
    ['Fourth quarter.', 'fragment'],
    // A judgement with a number can still be wrong about the number: checked.
    ['It was the worst winter since 1963.', 'claim'],
  ])('%s → %s', (sentence, expected) => {
    expect(judge(sentence)).toBe(expected);
  });
});

describe('quotedText', () => {
  it('reads paired quotes, and a quote that runs on from or into the next sentence', () => {
    expect(quotedText('"It is over," she said. "We go home."')).toBe('It is over, We go home.');
    expect(quotedText('"Phillips still needs to be more consistent.')).toBe('Phillips still needs to be more consistent.');
    expect(quotedText('He can win it all," said Edwards.')).toBe('He can win it all,');
    expect(quotedText('No quote here.')).toBe('');
  });
});
