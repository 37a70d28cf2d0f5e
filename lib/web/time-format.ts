/** Dates as people read them: relative ("3 days ago") beside absolute ("12 Mar 2024, 14:05 UTC"). */
const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ['year', 365 * 86400_000],
  ['month', 30 * 86400_000],
  ['week', 7 * 86400_000],
  ['day', 86400_000],
  ['hour', 3600_000],
  ['minute', 60_000],
];

const relative = new Intl.RelativeTimeFormat('en', { numeric: 'auto' });
const absolute = new Intl.DateTimeFormat('en-GB', {
  day: 'numeric',
  month: 'short',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  timeZone: 'UTC',
});
const dateOnly = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' });

export function formatRelative(date: Date, now: Date = new Date()): string {
  const diff = date.getTime() - now.getTime();
  for (const [unit, ms] of UNITS) {
    if (Math.abs(diff) >= ms) return relative.format(Math.trunc(diff / ms), unit);
  }
  return 'just now';
}

export function formatAbsolute(date: Date): string {
  return `${absolute.format(date)} UTC`;
}

export function formatDay(date: Date): string {
  return dateOnly.format(date);
}

/** Seconds as "2 min", "3 h", "5 d". */
export function formatDuration(seconds: number): string {
  const s = Math.abs(seconds);
  if (s < 60) return `${Math.round(s)} s`;
  if (s < 3600) return `${Math.round(s / 60)} min`;
  if (s < 86400) return `${Math.round(s / 3600)} h`;
  return `${Math.round(s / 86400)} d`;
}

export function formatBytes(bytes: number): string {
  const units = ['B', 'KB', 'MB', 'GB', 'TB'];
  let v = bytes;
  let i = 0;
  while (v >= 1024 && i < units.length - 1) [v, i] = [v / 1024, i + 1];
  return `${v >= 10 || i === 0 ? Math.round(v) : v.toFixed(1)} ${units[i]}`;
}
