import { FlaskConical } from 'lucide-react';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';

/**
 * Said wherever a subscriber sees the generated demo directory (PRODUCT.md: "Sample data is labelled").
 */
export function SampleDataBanner({ className }: { className?: string }) {
  return (
    <Alert variant="warning" role="note" className={className} data-testid="sample-data-banner">
      <FlaskConical aria-hidden="true" />
      <AlertTitle>Sample data</AlertTitle>
      <AlertDescription>
        This directory holds generated businesses on reserved example.com addresses, for trying Tambari. They
        are not real companies, none is verified, and mail to them reaches no one.
      </AlertDescription>
    </Alert>
  );
}
