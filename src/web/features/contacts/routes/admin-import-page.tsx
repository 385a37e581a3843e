import { ImportWizard } from '../components/import/import-wizard';

/** /admin/contact-database/import: the super admin's bulk import into the shared directory. */
export default function AdminImportPage() {
  return <ImportWizard target="directory" />;
}
