import { BadgeCheck, ClipboardList, LifeBuoy, SearchCheck, UploadCloud } from 'lucide-react';
import { Link } from 'react-router';

import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from '@/components/ui/card';
import { useAuth } from '@/hooks/use-auth';

const DUTIES = [
  {
    icon: UploadCloud,
    title: 'Add businesses',
    body: 'Enter new companies and their contacts into the shared directory.',
  },
  {
    icon: SearchCheck,
    title: 'Clean records',
    body: 'Fix categories, cities and duplicates so searches stay accurate.',
  },
  {
    icon: BadgeCheck,
    title: 'Verify contacts',
    body: 'Confirm emails and phone numbers so subscribers reach real people.',
  },
];

export default function DataEntryPage() {
  const { user } = useAuth();
  return (
    <div className="mx-auto w-full max-w-4xl space-y-6">
      <Card data-testid="data-entry-welcome">
        <CardHeader>
          <div className="mb-2 flex size-11 items-center justify-center rounded-lg bg-secondary text-primary">
            <ClipboardList className="size-5" aria-hidden="true" />
          </div>
          <CardTitle className="text-2xl">
            <h1>Data Entry Dashboard</h1>
          </CardTitle>
          <CardDescription className="text-base">
            Welcome{user?.firstName ? `, ${user.firstName}` : ''}. This is your workspace for keeping
            Tambari's business directory accurate. The directory tools — adding, cleaning and verifying
            contacts — open here with the contacts module.
          </CardDescription>
        </CardHeader>
        <CardContent>
          <ul className="grid gap-4 sm:grid-cols-3">
            {DUTIES.map((duty) => (
              <li key={duty.title} className="rounded-lg border p-4">
                <duty.icon className="size-5 text-primary" aria-hidden="true" />
                <p className="mt-3 font-medium">{duty.title}</p>
                <p className="mt-1 text-sm text-muted-foreground">{duty.body}</p>
              </li>
            ))}
          </ul>
        </CardContent>
        <CardFooter>
          <Button asChild variant="outline">
            <Link to="/help">
              <LifeBuoy aria-hidden="true" />
              Read the data standards in Help
            </Link>
          </Button>
        </CardFooter>
      </Card>
    </div>
  );
}
