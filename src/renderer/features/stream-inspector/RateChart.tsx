/** Events per second over the last minute, stacked by event kind, as a small SVG bar chart. */
import { chartGeometry } from './rate-chart-geometry.ts';
import type { RateSeries } from './rate-counter.ts';
import styles from './stream-inspector.module.css';

const WIDTH = 300;
const HEIGHT = 60;

export function kindClass(kind: string): string {
  return styles[`kind-${kind}`] ?? styles['kind-other'] ?? '';
}

export function RateChart({ series }: { series: RateSeries }) {
  const geometry = chartGeometry(series, WIDTH, HEIGHT);
  const latest = series.buckets.at(-1)?.total ?? 0;
  return (
    <figure className={styles.box} style={{ margin: 0 }} aria-label="Events per second">
      <div className={styles.row}>
        <span className={styles.title}>Events / s</span>
        <span className={styles.hint}>
          now {latest} · avg {series.averagePerSecond.toFixed(1)} · peak {series.maxTotal} (last 60 s)
        </span>
      </div>
      <svg className={styles.chart} viewBox={`0 0 ${WIDTH} ${HEIGHT}`} preserveAspectRatio="none" role="img" aria-label={`Peak ${series.maxTotal} events per second in the last minute`}>
        {geometry.ticks.map((t) => (
          <line key={t.value} className={styles.axis} x1={0} x2={WIDTH} y1={t.y} y2={t.y} vectorEffect="non-scaling-stroke" />
        ))}
        {geometry.segments.map((s) => (
          <rect key={`${s.second}-${s.kind}`} className={kindClass(s.kind)} x={s.x} y={s.y} width={s.width} height={s.height}>
            <title>{`${new Date(s.second).toLocaleTimeString()}: ${s.count} ${s.kind}`}</title>
          </rect>
        ))}
      </svg>
      <figcaption className={styles.row}>
        {series.kinds.length === 0 ? (
          <span className={styles.hint}>No events in the last minute.</span>
        ) : (
          series.kinds.map((k) => (
            <span key={k} className={kindClass(k)}>
              ■ {k}
            </span>
          ))
        )}
        <span className={styles.hint}>scale 0–{geometry.yMax}</span>
      </figcaption>
    </figure>
  );
}
