import { describe, expect, it } from 'vitest';
import { isPlausibleDate, parseDate } from './dates';

describe('parseDate', () => {
  it.each([
    ['Mon, 09 Apr 2018 18:55:38 GMT', '2018-04-09T18:55:38.000Z'],
    ['Seg, 24 Set 2018 19:42:40 -0300', '2018-09-24T22:42:40.000Z'], // Portuguese
    ['Fr, 19 Mai 2017 21:05:02 +0200', '2017-05-19T19:05:02.000Z'], // German
    ['mar., 5 févr. 2019 08:00:00 +0100', '2019-02-05T07:00:00.000Z'], // French
    ['07 Nov 2015 12:00:00 EST', '2015-11-07T17:00:00.000Z'], // no weekday
    ['03 Apr 02 1500 GMT', '2002-04-03T15:00:00.000Z'], // RSS 0.91 spec example: 2-digit year, no colon
    ['26-FEB-1987 15:01:01.79', '1987-02-26T15:01:01.790Z'], // Reuters-21578
    ['2017-06-21T10:33:10-07:00', '2017-06-21T17:33:10.000Z'],
    ['2016-06-03T07:38:00.000-07:00', '2016-06-03T14:38:00.000Z'],
    ['2018-05-26', '2018-05-26T00:00:00.000Z'],
    ['Sep 24, 2018 7:42 PM', '2018-09-24T19:42:00.000Z'],
  ])('%s', (raw, iso) => expect(parseDate(raw)?.toISOString()).toBe(iso));

  it('rejects zone offsets that cannot exist instead of shifting the date by days', () => {
    for (const s of [
      'Mon, 09 Apr 2018 18:55:38 +9999',
      'Mon, 09 Apr 2018 18:55:38 -1500',
      '2018-04-09T18:55:38+99:99',
      '2018-04-09T18:55:38+05:75',
      'Apr 9, 2018 6:55 PM +9999',
    ])
      expect(parseDate(s), s).toBeNull();
    expect(parseDate('Mon, 09 Apr 2018 18:55:38 +1400')?.toISOString()).toBe('2018-04-09T04:55:38.000Z');
    expect(parseDate('Mon, 09 Apr 2018 18:55:38 -1200')?.toISOString()).toBe('2018-04-10T06:55:38.000Z');
  });

  it('returns null for what is not a date, and for impossible days', () => {
    for (const s of ['', 'yesterday', '1', '31 Feb 2020 10:00 GMT', 'Mon, 09 Foo 2018 18:55:38 GMT']) expect(parseDate(s), s).toBeNull();
  });

  it('calls future and pre-1980 dates implausible', () => {
    const now = new Date('2025-01-01T00:00:00Z');
    expect(isPlausibleDate(new Date('2024-12-31T00:00:00Z'), now)).toBe(true);
    expect(isPlausibleDate(new Date('2025-02-01T00:00:00Z'), now)).toBe(false);
    expect(isPlausibleDate(new Date(0), now)).toBe(false);
    expect(isPlausibleDate(null, now)).toBe(false);
  });
});
