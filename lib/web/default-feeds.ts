/**
 * The feeds seeded on first start (QUIN_SEED_FEEDS=true): real, public, general-news RSS/Atom feeds
 * in English from several countries, so that a fresh install has coverage to search within an hour.
 * Admins edit the list afterwards on the dashboard; seeding happens once per database.
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

export const FEEDS_SEEDED_KEY = 'feeds_seeded_at';
