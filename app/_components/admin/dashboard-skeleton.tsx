export function DashboardSkeleton() {
  return (
    <div aria-busy="true">
      <p role="status" className="visually-hidden">
        Loading the dashboard…
      </p>
      <div className="kpis" aria-hidden="true">
        {Array.from({ length: 5 }, (_, i) => (
          <div key={i} className="kpi skeleton" style={{ height: 84 }} />
        ))}
      </div>
      <div className="card skeleton" style={{ height: 320 }} aria-hidden="true" />
    </div>
  );
}
