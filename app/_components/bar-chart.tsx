import { layoutBars, type BarDatum } from '../../lib/web/chart';

/** A small server-rendered bar chart (SVG), with a text alternative for screen readers. */
export function BarChart({
  data,
  label,
  unit,
  height = 120,
  testId,
}: {
  data: BarDatum[];
  label: string;
  unit: string;
  height?: number;
  testId?: string;
}) {
  const width = 720;
  const pad = { left: 34, right: 8, top: 8, bottom: 22 };
  const plotW = width - pad.left - pad.right;
  const plotH = height - pad.top - pad.bottom;
  const { bars, ticks, labelled } = layoutBars(data, plotW, plotH, { gap: data.length > 120 ? 0 : 2 });
  const total = data.reduce((a, d) => a + d.value, 0);
  const peak = data.reduce<BarDatum | null>((a, d) => (!a || d.value > a.value ? d : a), null);
  const summary = data.length
    ? `${label}: ${total.toLocaleString('en')} ${unit} from ${data[0]!.key} to ${data[data.length - 1]!.key}` +
      (peak && peak.value > 0 ? `, most (${peak.value}) in ${peak.key}` : '')
    : `${label}: no data`;
  return (
    <figure style={{ margin: 0 }} data-testid={testId}>
      <svg className="chart" viewBox={`0 0 ${width} ${height}`} role="img" aria-label={summary} preserveAspectRatio="none">
        <g transform={`translate(${pad.left},${pad.top})`}>
          {ticks.map((t) => (
            <g key={t.value}>
              <line className="axis" x1={0} x2={plotW} y1={t.y} y2={t.y} strokeDasharray={t.value === 0 ? undefined : '2 3'} />
              <text x={-6} y={t.y + 4} textAnchor="end">
                {Number.isInteger(t.value) ? t.value : t.value.toFixed(1)}
              </text>
            </g>
          ))}
          {bars.map((b) => (
            <rect key={b.key} className="bar-rect" x={b.x} y={b.y} width={b.width} height={b.height} rx={b.width > 4 ? 2 : 0}>
              <title>{`${b.key}: ${b.value} ${unit}`}</title>
            </rect>
          ))}
          {labelled.map((i) => {
            const b = bars[i]!;
            const anchor = i === 0 ? 'start' : i === bars.length - 1 ? 'end' : 'middle';
            const x = anchor === 'start' ? b.x : anchor === 'end' ? b.x + b.width : b.x + b.width / 2;
            return (
              <text key={`l${i}`} x={x} y={plotH + 15} textAnchor={anchor}>
                {b.key}
              </text>
            );
          })}
        </g>
      </svg>
      <figcaption className="visually-hidden">{summary}</figcaption>
    </figure>
  );
}
