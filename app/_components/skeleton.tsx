/** Placeholder cards while results load. */
export function ResultSkeletons({ count = 4 }: { count?: number }) {
  return (
    <div aria-hidden="true">
      {Array.from({ length: count }, (_, i) => (
        <div className="result" key={i} style={{ marginBottom: 12 }}>
          <div className="skeleton skeleton-title" />
          <div className="skeleton skeleton-line" style={{ width: '30%' }} />
          <div className="skeleton skeleton-line" />
          <div className="skeleton skeleton-line" />
          <div className="skeleton skeleton-line" style={{ width: '80%' }} />
        </div>
      ))}
    </div>
  );
}
