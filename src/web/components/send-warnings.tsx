import { TriangleAlert } from 'lucide-react';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';

/**
 * What a test went out with that a real send would refuse or get wrong (merge tags nobody fills,
 * placeholders): the test was sent, these need fixing before the real send.
 */
export function SendWarnings({ warnings, title }: { warnings: readonly string[]; title: string }) {
  if (warnings.length === 0) return null;
  return (
    <Alert variant="warning" data-testid="test-send-warnings">
      <TriangleAlert aria-hidden="true" />
      <AlertTitle>{title}</AlertTitle>
      <AlertDescription>
        <ul className="list-disc space-y-1 pl-4">
          {warnings.map((warning) => (
            <li key={warning} className="break-words">
              {warning}
            </li>
          ))}
        </ul>
      </AlertDescription>
    </Alert>
  );
}
