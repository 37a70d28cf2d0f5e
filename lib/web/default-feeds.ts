/**
 * The default feeds: real, public, general-news RSS/Atom feeds in English from several countries, so
 * that a fresh install has coverage to search within an hour. They are added on a first start only
 * when a first check reaches one of them (a machine without internet would otherwise start with a
 * wall of ten red feeds), or when an admin asks (the dashboard's button, `quin feeds seed`).
 * QUIN_SEED_FEEDS=false turns the automatic seeding off; a list of URLs replaces the default list.
 * Seeding happens once per database: feeds an admin removes do not come back.
 */
export const DEFAULT_FEEDS: readonly { url: string; title: string }[] = [
  { url: 'https://feeds.bbci.co.uk/news/world/rss.xml', title: 'BBC News – World' },
  { url: 'https://feeds.bbci.co.uk/news/science_and_environment/rss.xml', title: 'BBC News – Science & Environment' },
  { url: 'https://www.theguardian.com/world/rss', title: 'The Guardian – World news' },
  { url: 'https://feeds.npr.org/1001/rss.xml', title: 'NPR – News' },
  { url: 'https://www.aljazeera.com/xml/rss/all.xml', title: 'Al Jazeera English' },
  { url: 'https://rss.dw.com/rdf/rss-en-all', title: 'Deutsche Welle – All news' },
  { url: 'https://www.france24.com/en/rss', title: 'France 24 – English' },
  { url: 'https://rss.nytimes.com/services/xml/rss/nyt/World.xml', title: 'The New York Times – World' },
  { url: 'https://www.cbc.ca/webfeed/rss/rss-world', title: 'CBC News – World' },
  { url: 'https://www.sciencedaily.com/rss/top/science.xml', title: 'ScienceDaily – Top science' },
];

/** Set (to the time) once the list was added: it is never added again. */
export const FEEDS_SEEDED_KEY = 'feeds_seeded_at';
/** Set (JSON {at, reason}) when a first start did not add the list because no feed could be reached. */
export const FEEDS_SEED_SKIPPED_KEY = 'feeds_seed_skipped';

/** The list QUIN_SEED_FEEDS names: the default one for `true` (and for `false`, when an admin asks), or its own URLs. */
export function seedList(setting: boolean | string[]): { url: string; title: string | null }[] {
  return Array.isArray(setting) ? setting.map((url) => ({ url, title: null })) : [...DEFAULT_FEEDS];
}
