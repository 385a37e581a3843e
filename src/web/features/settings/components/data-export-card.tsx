import { Download } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';

/**
 * "Download my data": a plain link to the streamed export (GET /api/user/export), so the browser's own
 * download manager handles a large file instead of this page holding it in memory.
 */
export function DataExportCard() {
  return (
    <Card data-testid="data-export" id="your-data">
      <CardHeader>
        <CardTitle>
          <h2>Your data</h2>
        </CardTitle>
        <CardDescription>
          Download everything your account holds — profile, lists and contacts, campaigns, newsletters,
          templates, sender accounts (without passwords), email activity, replies, suppressions and orders —
          as one JSON Lines file.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <Button asChild variant="outline">
          <a href="/api/user/export" download data-testid="data-export-download">
            <Download aria-hidden="true" />
            Download my data
          </a>
        </Button>
      </CardContent>
    </Card>
  );
}
