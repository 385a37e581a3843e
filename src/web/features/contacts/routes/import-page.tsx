import { useSearchParams } from 'react-router';
import { ImportWizard } from '../components/import/import-wizard';

/** /lead-discovery/import: a CSV into one of my lists (`?listId=`) or my suppression list (`?target=suppression`). */
export default function ImportPage() {
  const [searchParams] = useSearchParams();
  const target = searchParams.get('target') === 'suppression' ? 'suppression' : 'list';
  return <ImportWizard key={target} target={target} />;
}
