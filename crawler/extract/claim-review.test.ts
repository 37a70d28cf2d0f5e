/**
 * ClaimReview JSON-LD as fact-checkers publish it (pages in testdata/claimreview/ carry the real-world
 * shapes: a single object; a Yoast-style @graph with @id references; a top-level array with "@type"
 * as an array; a review nested in a NewsArticle inside an HTML comment, typed with the full IRI, beside
 * a broken block and a review without a claim), read through the article extraction the crawler uses.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { extractClaimReviews } from './claim-review';
import { extractArticle } from './article';

const page = (name: string, url: string) =>
  extractArticle(
    fs.readFileSync(path.join(__dirname, '..', 'testdata', 'claimreview', name), 'utf8'),
    url,
    new Date('2024-07-01T00:00:00Z'),
  );

describe('published fact-checks (ClaimReview)', () => {
  it('a single object: claim, rating in words and numbers, reviewer, claimant, first appearance, dates', () => {
    const p = page('single-object.html', 'https://coastfact.example/2019/harbour-bridge-repair-cost/');
    expect(p.claimReviews).toEqual([
      {
        reviewUrl: 'https://coastfact.example/2019/harbour-bridge-repair-cost/',
        claim: 'The harbour bridge repairs will cost forty million pounds',
        claimHash: expect.stringMatching(/^[0-9a-f]{64}$/),
        rating: 'Incorrect: the council puts the cost at about four million pounds',
        ratingValue: 1,
        bestRating: 5,
        worstRating: 1,
        reviewer: 'Coast Fact',
        reviewerUrl: 'https://coastfact.example/',
        claimant: 'Councillor Jane Rivers',
        appearanceUrl: 'https://social.example/janerivers/status/123',
        claimDate: new Date('2019-03-02T00:00:00Z'),
        reviewedAt: new Date('2019-03-05T00:00:00Z'),
        language: null,
      },
    ]);
    expect(p.text).toContain('about four million pounds');
  });

  it('an @graph whose review names its author by @id', () => {
    const [r, ...rest] = page('graph.html', 'https://estuarychecks.example/fact-check/island-ferry-scrapped/').claimReviews;
    expect(rest).toEqual([]);
    expect(r).toMatchObject({
      claim: 'The island ferry service is being scrapped this winter',
      rating: 'Mostly false',
      ratingValue: 2,
      reviewer: 'Estuary Checks',
      reviewerUrl: 'https://estuarychecks.example/',
      claimant: 'Islanders Against Cuts',
      appearanceUrl: 'https://leaflets.example/ferry.pdf',
      language: 'en-GB',
      reviewedAt: new Date('2024-05-21T08:00:00Z'),
    });
  });

  it('a top-level array of reviews, "@type" as an array, numeric ratings', () => {
    const rs = page('array.html', 'https://librarymeter.example/checks/library-hours').claimReviews;
    expect(rs.map((r) => [r.reviewUrl, r.claim, r.rating, r.ratingValue, r.bestRating, r.claimant])).toEqual([
      [
        'https://librarymeter.example/checks/library-hours#one',
        'The town library will close at five during exam season',
        'Pants on Fire!',
        0,
        5,
        'A post on a community forum',
      ],
      [
        'https://librarymeter.example/checks/library-hours#two',
        'The library will stay open until ten in the evening during exams',
        'True',
        5,
        5,
        'County council',
      ],
    ]);
  });

  it('a review nested in an article, in a comment-wrapped block, typed with the full IRI; broken blocks and claimless reviews skipped', () => {
    const rs = page('nested.html', 'https://checkdesk.example/tidal-lagoon-approval').claimReviews;
    expect(rs).toHaveLength(1);
    expect(rs[0]).toMatchObject({
      reviewUrl: 'https://checkdesk.example/tidal-lagoon-approval',
      claim: 'The tidal lagoon power plant was refused planning permission',
      rating: 'False',
      bestRating: 7,
      reviewer: 'Check Desk',
      claimant: 'Estuary Watch',
      appearanceUrl: 'https://estuarywatch.example/news/lagoon',
      claimDate: new Date('2024-06-01T00:00:00Z'),
      language: 'en',
    });
  });

  it('pages without fact-checks, hostile JSON-LD and implausible dates', () => {
    expect(extractClaimReviews([], 'https://a.example/')).toEqual([]);
    expect(
      extractClaimReviews(
        ['null', '42', '"x"', '[[[[[[[[[[[[[[[[{"@type":"ClaimReview","claimReviewed":"deep"}]]]]]]]]]]]]]]]'],
        'https://a.example/',
      ),
    ).toEqual([]);
    const [r] = extractClaimReviews(
      [
        JSON.stringify({
          '@type': 'ClaimReview',
          claimReviewed: '  The   sea is  dry ',
          url: 'javascript:alert(1)',
          datePublished: '2999-01-01',
          author: 'Someone',
          reviewRating: { ratingValue: 'n/a' },
        }),
      ],
      'https://a.example/page',
      new Date('2024-01-01T00:00:00Z'),
    );
    expect(r).toMatchObject({
      claim: 'The sea is dry',
      reviewUrl: 'https://a.example/page',
      reviewedAt: null,
      reviewer: 'Someone',
      rating: 'n/a',
      ratingValue: null,
    });
  });
});
