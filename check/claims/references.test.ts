import { describe, expect, it } from 'vitest';
import { namesIn, ReferenceMemory } from './references';
import { asSentence, tokenize } from './tokens';

/** The sentences read in order through one memory: each with its opening reference resolved. */
function read(title: string | null, sentences: string[]): string[] {
  const memory = new ReferenceMemory(title);
  return sentences.map((s) => {
    const { tokens } = memory.resolve(tokenize(s));
    memory.remember(tokens);
    return asSentence(tokens);
  });
}

describe('ReferenceMemory', () => {
  it('resolves "It" to the organisation the sentence before was about, and "the company" to the one the article is about', () => {
    expect(
      read('Helix Motors profits jump', [
        'Helix Motors sold 2 million cars in 2023.',
        'Its truck unit, Helix Freight, had a poor year.',
        'It lost 300 drivers.',
        'The company said sales would rise in 2024.',
      ]),
    ).toEqual([
      'Helix Motors sold 2 million cars in 2023.',
      "Helix Motors's truck unit, Helix Freight, had a poor year.",
      'Helix Freight lost 300 drivers.',
      'Helix Motors said sales would rise in 2024.',
    ]);
  });

  it('resolves "He" and "His" to the person named last, by the full name first used', () => {
    expect(
      read(null, ['Prime minister Ana Ruiz met union leaders on Monday.', 'Ruiz offered a 3% pay rise.', 'He said talks would resume.']),
    ).toEqual(['Prime minister Ana Ruiz met union leaders on Monday.', 'Ruiz offered a 3% pay rise.', 'Ana Ruiz said talks would resume.']);
    expect(read(null, ['Coach Tom Berg resigned on Friday.', 'His team lost 12 games.'])).toEqual([
      'Coach Tom Berg resigned on Friday.',
      "Tom Berg's team lost 12 games.",
    ]);
  });

  it('leaves pronouns inside quotes, an "it" that stands for what follows, and a text with nobody named', () => {
    expect(read(null, ['Coach Tom Berg resigned on Friday.', '"He gave everything," said the chairman.'])[1]).toBe(
      '"He gave everything," said the chairman.',
    );
    expect(read('Helix Motors', ['It is likely that prices will rise.'])).toEqual(['It is likely that prices will rise.']);
    expect(read(null, ['It rained all week.'])).toEqual(['It rained all week.']);
  });
});

describe('namesIn', () => {
  it('finds people and organisations, with "of" inside a name, and leaves places and dates out', () => {
    expect(namesIn(tokenize('The Bank of England and Ana Ruiz met in Paris on Monday.'))).toEqual([
      { text: 'Bank of England', person: false },
      { text: 'Ana Ruiz', person: true },
    ]);
  });
});
