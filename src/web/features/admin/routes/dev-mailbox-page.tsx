// Placeholder so the router type-checks; the feature's own page replaces this file.
export default function DevMailboxPage() {
  return <h1 className="text-2xl font-semibold tracking-tight">Dev Mailbox</h1>;
}
