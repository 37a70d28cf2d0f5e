import type { SourceCoverage } from '../_lib/stories';

const COLORS = ['#2d5ca8', '#c2410c', '#15803d', '#7c3aed', '#b45309', '#94a3b8'];

/** Coverage over time split by source: stacked bars (SVG, server-rendered) with a legend and a text alternative. */
export function SourceChart({ coverage, height = 130 }: { coverage: SourceCoverage; height?: number }) {
  const { points, sources } = coverage;
  if (!points.length) return <p className="muted small">No dated coverage.</p>;
  const names = [...sources, 'Other'];
  const used = names.map((_, i) => points.some((p) => (p.counts[i] ?? 0) > 0));
  const width = 720;
  const pad = { left: 28, right: 6, top: 6, bottom: 20 };
  const plotW = width - pad.left - pad.right;
  const plotH = height - pad.top - pad.bottom;
  const max = Math.max(1, ...points.map((p) => p.counts.reduce((a, b) => a + b, 0)));
  const slot = plotW / points.length;
  const barW = Math.max(1, slot - (points.length > 80 ? 0 : 2));
  const totals = names.map((n, i) => ({ n, c: points.reduce((a, p) => a + (p.counts[i] ?? 0), 0) })).filter((x) => x.c > 0);
  const summary = `Matching articles per ${coverage.unit} by source, ${points[0]!.date} to ${points.at(-1)!.date}: ${totals.map((t) => `${t.n} ${t.c}`).join(', ')}`;
  return (
    <figure className="source-chart" data-testid="source-chart">
      <svg className="chart" viewBox={`0 0 ${width} ${height}`} role="img" aria-label={summary} preserveAspectRatio="none">
        <g transform={`translate(${pad.left},${pad.top})`}>
          <line className="axis" x1={0} x2={plotW} y1={plotH} y2={plotH} />
          <text x={-6} y={8} textAnchor="end">
            {max}
          </text>
          {points.map((p, i) => {
            let y = plotH;
            return (
              <g key={p.date}>
                {p.counts.map((c, s) => {
                  if (!c) return null;
                  const h = (c / max) * plotH;
                  y -= h;
                  return (
                    <rect key={s} x={i * slot} y={y} width={barW} height={h} fill={COLORS[Math.min(s, COLORS.length - 1)]}>
                      <title>{`${p.date}: ${names[s]} ${c}`}</title>
                    </rect>
                  );
                })}
              </g>
            );
          })}
          <text x={0} y={plotH + 15} textAnchor="start">
            {points[0]!.date}
          </text>
          <text x={plotW} y={plotH + 15} textAnchor="end">
            {points.at(-1)!.date}
          </text>
        </g>
      </svg>
      <figcaption className="legend">
        {names.map((n, i) =>
          used[i] ? (
            <span key={n} className="legend__item">
              <span className="legend__swatch" style={{ background: COLORS[Math.min(i, COLORS.length - 1)] }} aria-hidden="true" />
              {n}
            </span>
          ) : null,
        )}
      </figcaption>
    </figure>
  );
}
