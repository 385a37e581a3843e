// Placeholder so the router type-checks; the feature's own page replaces this file.
export default function DashboardPage() {
  return <h1 className="text-2xl font-semibold tracking-tight">Dashboard</h1>;
}
