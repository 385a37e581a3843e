// Placeholder so the router type-checks; the feature's own page replaces this file.
export default function AdminUsersPage() {
  return <h1 className="text-2xl font-semibold tracking-tight">Users</h1>;
}
