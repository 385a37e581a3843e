import { Link } from 'react-router';

import { cn } from '@/lib/utils';

/** The tambari drum mark: a gold drumhead over a laced body. */
export function BrandMark({ className }: { className?: string }) {
  return (
    <svg viewBox="0 0 64 64" aria-hidden="true" className={cn('size-8 shrink-0', className)}>
      <rect width="64" height="64" rx="14" fill="#1f5a3d" />
      <ellipse cx="32" cy="22" rx="18" ry="6" fill="#e3b341" />
      <path d="M14 22v16c0 7 8 12 18 12s18-5 18-12V22c0 3.3-8 6-18 6s-18-2.7-18-6z" fill="#f5e9c8" />
      <path
        d="M14 30l9 16M50 30l-9 16M24 28l8 22M40 28l-8 22"
        stroke="#1f5a3d"
        strokeWidth="2.2"
        strokeLinecap="round"
      />
      <ellipse cx="32" cy="22" rx="12" ry="3.4" fill="#c9922a" />
    </svg>
  );
}

export function BrandLogo({
  to = '/',
  className,
  tone = 'default',
}: {
  to?: string;
  className?: string;
  tone?: 'default' | 'inverted';
}) {
  return (
    <Link
      to={to}
      className={cn(
        'inline-flex items-center gap-2 rounded-md font-semibold tracking-tight outline-none focus-visible:ring-[3px] focus-visible:ring-ring/50',
        tone === 'inverted' ? 'text-sidebar-accent-foreground' : 'text-foreground',
        className,
      )}
      aria-label="Tambari home"
    >
      <BrandMark />
      <span className="text-lg">Tambari</span>
    </Link>
  );
}
