/**
 * Dates as real feeds write them: RFC 822 (with 2- or 4-digit years, with or without seconds or
 * colons), ISO 8601, and the same forms with day and month names in other languages ("Seg, 24 Set
 * 2018 19:42:40 -0300"). Pure: string in, Date or null out.
 */

const MONTHS: Record<string, number> = { sept: 8 };
// English, Portuguese, Spanish, French, German, Italian, Dutch; full and abbreviated names, accents
// folded away before lookup. Where languages share a spelling they agree on the month.
for (const names of [
  'jan feb mar apr may jun jul aug sep oct nov dec',
  'january february march april may june july august september october november december',
  'jan fev mar abr mai jun jul ago set out nov dez',
  'janeiro fevereiro marco abril maio junho julho agosto setembro outubro novembro dezembro',
  'ene feb mar abr may jun jul ago sep oct nov dic',
  'enero febrero marzo abril mayo junio julio agosto septiembre octubre noviembre diciembre',
  'janv fevr mars avr mai juin juil aout sept oct nov dec',
  'janvier fevrier mars avril mai juin juillet aout septembre octobre novembre decembre',
  'jan feb mar apr mai jun jul aug sep okt nov dez',
  'januar februar marz april mai juni juli august september oktober november dezember',
  'gen feb mar apr mag giu lug ago set ott nov dic',
  'gennaio febbraio marzo aprile maggio giugno luglio agosto settembre ottobre novembre dicembre',
  'jan feb mrt apr mei jun jul aug sep okt nov dec',
  'januari februari maart april mei juni juli augustus september oktober november december',
]) {
  names.split(' ').forEach((n, i) => (MONTHS[n] = i));
}

// Zone abbreviations in minutes east of UTC.
const ZONES: Record<string, number> = {
  ut: 0,
  utc: 0,
  gmt: 0,
  z: 0,
  wet: 0,
  bst: 60,
  ist: 330,
  cet: 60,
  met: 60,
  cest: 120,
  mest: 120,
  eet: 120,
  eest: 180,
  msk: 180,
  est: -300,
  edt: -240,
  cst: -360,
  cdt: -300,
  mst: -420,
  mdt: -360,
  pst: -480,
  pdt: -420,
  akst: -540,
  akdt: -480,
  hst: -600,
  aest: 600,
  aedt: 660,
  acst: 570,
  awst: 480,
  jst: 540,
  kst: 540,
  nzst: 720,
  nzdt: 780,
  brt: -180,
  art: -180,
  sgt: 480,
  hkt: 480,
};

function fold(s: string): string {
  return s
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase();
}

// Real offsets run from -12:00 to +14:00; "+9999" would shift a date by more than four days.
const MAX_OFFSET_MIN = 14 * 60;

function zoneOffset(token: string | undefined): number | null {
  if (!token) return 0;
  const m = /^([+-])(\d{2}):?(\d{2})$/.exec(token);
  if (m) {
    const minutes = Number(m[2]) * 60 + Number(m[3]);
    return Number(m[3]) > 59 || minutes > MAX_OFFSET_MIN ? null : (m[1] === '-' ? -1 : 1) * minutes;
  }
  const z = ZONES[fold(token)];
  return z === undefined ? null : z;
}

function fullYear(y: number, digits: number): number {
  if (digits > 2) return y;
  return y < 50 ? 2000 + y : 1900 + y;
}

function build(year: number, month: number, day: number, h: number, mi: number, s: number, offsetMin: number): Date | null {
  if (month < 0 || month > 11 || day < 1 || day > 31 || h > 24 || mi > 59 || s > 60) return null;
  const t = Date.UTC(year, month, day, h, mi, Math.floor(s), Math.round((s % 1) * 1000)) - offsetMin * 60_000;
  const d = new Date(t);
  // Reject rollovers such as 31 Feb.
  if (new Date(Date.UTC(year, month, day)).getUTCDate() !== day) return null;
  return Number.isNaN(d.getTime()) ? null : d;
}

// "[Day,] 24 Set 2018 [19:42[:40]] [zone]" and "03 Apr 02 1500 GMT".
const RFC_LIKE =
  /^(?:[^\d,]+,?\s*)?(\d{1,2})[\s.-]+([^\s\d.,-]+)\.?[\s.-]+(\d{2,4})(?:[\s,T]+(\d{1,2}):?(\d{2})(?::?(\d{2}(?:\.\d+)?))?)?\s*([+-]\d{2}:?\d{2}|[A-Za-z]{1,5})?(?:\s*\([^)]*\))?$/;
// "Sep 24, 2018 [7:42 PM]" (US style, month first).
const US_LIKE =
  /^(?:[^\d,]+,\s*)?([^\s\d.,]+)\.?\s+(\d{1,2}),?\s+(\d{4})(?:[\s,]+(\d{1,2}):(\d{2})(?::(\d{2}))?\s*([AaPp][Mm])?)?\s*([+-]\d{2}:?\d{2}|[A-Za-z]{1,5})?$/;
const ISO = /^(\d{4})-(\d{2})-(\d{2})(?:[T\s](\d{2}):(\d{2})(?::(\d{2}(?:\.\d+)?))?)?\s*(Z|[+-]\d{2}:?\d{2})?$/i;

const MAX_DATE_CHARS = 200;

export function parseDate(input: string | null | undefined): Date | null {
  if (!input) return null;
  const s = input.trim().replace(/\s+/g, ' ');
  // Nothing longer is a date; a hostile feed's kilobytes are not handed to the patterns below.
  if (!s || s.length > MAX_DATE_CHARS) return null;

  let m = ISO.exec(s);
  if (m) {
    const off = zoneOffset(m[7] ?? 'Z');
    return off === null ? null : build(+m[1]!, +m[2]! - 1, +m[3]!, +(m[4] ?? 0), +(m[5] ?? 0), +(m[6] ?? 0), off);
  }
  m = RFC_LIKE.exec(s);
  if (m) {
    const month = MONTHS[fold(m[2]!).replace(/\.$/, '')];
    const off = zoneOffset(m[7]);
    // A date whose zone is a numeric offset that cannot exist is unreadable (not guessed at below).
    if (off === null && /^[+-]/.test(m[7] ?? '')) return null;
    if (month !== undefined && off !== null) {
      return build(fullYear(+m[3]!, m[3]!.length), month, +m[1]!, +(m[4] ?? 0), +(m[5] ?? 0), +(m[6] ?? 0), off);
    }
  }
  m = US_LIKE.exec(s);
  if (m) {
    const month = MONTHS[fold(m[1]!)];
    const off = zoneOffset(m[8]);
    if (off === null && /^[+-]/.test(m[8] ?? '')) return null;
    if (month !== undefined && off !== null) {
      let h = +(m[4] ?? 0);
      const ampm = m[7]?.toLowerCase();
      if (ampm === 'pm' && h < 12) h += 12;
      if (ampm === 'am' && h === 12) h = 0;
      return build(+m[3]!, month, +m[2]!, h, +(m[5] ?? 0), +(m[6] ?? 0), off);
    }
  }
  // Last resort: the engine's own parser (handles a few more English forms), only for strings that
  // contain a 4-digit year, since it accepts nonsense such as "1".
  if (/\b(1[89]|2\d)\d{2}\b/.test(s)) {
    const t = Date.parse(s);
    if (!Number.isNaN(t)) return new Date(t);
  }
  return null;
}

/**
 * A publication date is plausible when it is not in the future (beyond clock skew) and not before
 * the given floor. Feeds do publish 1970-01-01 and dates years ahead.
 */
export function isPlausibleDate(d: Date | null, now = new Date(), floor = new Date('1980-01-01T00:00:00Z')): d is Date {
  return d !== null && d.getTime() <= now.getTime() + 2 * 86_400_000 && d.getTime() >= floor.getTime();
}
