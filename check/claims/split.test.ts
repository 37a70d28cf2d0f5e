import { describe, expect, it } from 'vitest';
import { splitClaim } from './split';
import { tokenize } from './tokens';

const parts = (s: string) => splitClaim(tokenize(s));

// Sentences written for these tests; each shows one construction the splitter takes apart.
describe('splitClaim', () => {
  it('splits the issue’s example: a relative clause after the verb becomes its own part, owned by the subject', () => {
    expect(parts('U2 sold 150,000 tickets in 50 minutes for two Croke Park concerts on a tour that starts in San Diego.')).toEqual([
      'U2 sold 150,000 tickets in 50 minutes for two Croke Park concerts on a tour.',
      "U2's tour starts in San Diego.",
    ]);
  });

  it('takes an appositive and a non-restrictive relative clause out of the subject', () => {
    expect(parts("Bono, the band's lead singer, said the shows would sell out.")).toEqual([
      'Bono said the shows would sell out.',
      "Bono is the band's lead singer.",
    ]);
    expect(parts('Apple, which reported record profits in 2023, plans to open 20 stores in China.')).toEqual([
      'Apple plans to open 20 stores in China.',
      'Apple reported record profits in 2023.',
    ]);
  });

  it('splits clauses with their own subjects, and verb phrases that share one', () => {
    expect(parts('Sales rose 4% in March, while costs fell 2%.')).toEqual(['Sales rose 4% in March.', 'Costs fell 2%.']);
    expect(parts('Engineers found corrosion in the deck, and repairs to the bridge are expected to take six weeks.')).toEqual([
      'Engineers found corrosion in the deck.',
      'Repairs to the bridge are expected to take six weeks.',
    ]);
    expect(parts('Fulham won 3-1 on Saturday; Chelsea lost at home.')).toEqual(['Fulham won 3-1 on Saturday.', 'Chelsea lost at home.']);
    expect(parts('The council said it would close two libraries and cut 40 jobs by June.')).toEqual([
      'The council said it would close two libraries.',
      'The council said it would cut 40 jobs by June.',
    ]);
    expect(parts('Tickets went on sale at 9am and sold out by 9.30am.')).toEqual([
      'Tickets went on sale at 9am.',
      'Tickets sold out by 9.30am.',
    ]);
  });

  it('takes out a subordinate clause with its own subject, and a participle between commas', () => {
    expect(parts('Shares in BP rose 3% after the company reported record profits of £10bn.')).toEqual([
      'Shares in BP rose 3%.',
      'The company reported record profits of £10bn.',
    ]);
    expect(parts('After the company reported record profits, shares in BP rose 3%.')).toEqual([
      'The company reported record profits.',
      'Shares in BP rose 3%.',
    ]);
    expect(parts('The film, directed by Ang Lee, won four Oscars in 2006.')).toEqual([
      'The film won four Oscars in 2006.',
      'The film was directed by Ang Lee.',
    ]);
    expect(parts('Idowu made his debut in 2000 but so far has only one silver medal.')).toEqual([
      'Idowu made his debut in 2000.',
      'Idowu so far has only one silver medal.',
    ]);
  });

  it('leaves alone what is one claim: lists of names or numbers, a relative clause in the subject, a short sentence', () => {
    for (const s of [
      'Smith and Jones scored in the 2-0 win over Leeds.',
      'The firm will restate its 2000 and 2003 results.',
      'Companies that export to China reported a 5% fall in sales.',
      'Rates rose to 4%.',
      'The firm is to restate its accounts as part of efforts to resolve an inquiry by regulators.',
    ])
      expect(parts(s)).toEqual([s]);
  });

  it('makes at most five parts', () => {
    const long = 'Ann won in 2001, Bob won in 2002, Cy won in 2003, Di won in 2004, Ed won in 2005, and Flo won in 2006.';
    expect(parts(long).length).toBeLessThanOrEqual(5);
  });
});
