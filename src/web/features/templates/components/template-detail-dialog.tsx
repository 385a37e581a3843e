import type { Template } from '@shared/templates';
import { Copy, Pencil, Trash2 } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { categoryLabel } from '@/components/templates/template-browser';
import { TemplatePreview } from '@/components/templates/template-preview';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog';
import { templateUseLinks } from '../lib/template-links';

/** A template's preview and what can be done with it (depends on who is looking). */
export function TemplateDetailDialog({
  template,
  onOpenChange,
  audience,
  onSaveCopy,
  onEdit,
  onDelete,
  extraActions,
}: {
  template: Template | null;
  onOpenChange: (open: boolean) => void;
  /** visitor: read-only with a sign-up prompt; user: use / save / edit own; admin: manage. */
  audience: 'visitor' | 'user' | 'admin';
  onSaveCopy?: (template: Template) => void;
  onEdit?: (template: Template) => void;
  onDelete?: (template: Template) => void;
  extraActions?: ReactNode;
}) {
  const own = template ? !template.isLibrary : false;
  return (
    <Dialog open={template !== null} onOpenChange={onOpenChange}>
      <DialogContent
        className="flex max-h-[92dvh] flex-col gap-4 sm:max-w-4xl"
        data-testid="template-detail-dialog"
      >
        {template && (
          <>
            <DialogHeader>
              <div className="flex flex-wrap items-center gap-1.5">
                <Badge variant="secondary">{categoryLabel(template.category)}</Badge>
                {template.kind === 'newsletter' && template.category !== 'newsletter-layout' && (
                  <Badge variant="outline">Newsletter layout</Badge>
                )}
                {own && <Badge variant="success">Mine</Badge>}
                {!template.published && <Badge variant="warning">Unpublished</Badge>}
              </div>
              <DialogTitle>{template.name}</DialogTitle>
              <DialogDescription>{template.description}</DialogDescription>
            </DialogHeader>
            <TemplatePreview
              template={template}
              className="shrink-0"
              frameClassName="h-[42dvh] sm:h-[48dvh]"
            />
            {template.mergeTags.length > 0 && (
              <p className="text-xs text-muted-foreground">
                Merge tags:{' '}
                {template.mergeTags.map((tag) => (
                  <code key={tag} className="mr-1 rounded bg-muted px-1 py-0.5">
                    {`{{ ${tag} }}`}
                  </code>
                ))}
              </p>
            )}
            <DialogFooter className="flex-wrap gap-2 sm:justify-between">
              <div className="flex flex-wrap gap-2">
                {audience === 'user' && own && onEdit && (
                  <Button variant="outline" onClick={() => onEdit(template)} data-testid="edit-template">
                    <Pencil aria-hidden="true" />
                    Edit
                  </Button>
                )}
                {((audience === 'user' && own) || audience === 'admin') && onDelete && (
                  <Button variant="outline" onClick={() => onDelete(template)} data-testid="delete-template">
                    <Trash2 aria-hidden="true" />
                    Delete
                  </Button>
                )}
                {audience === 'user' && !own && onSaveCopy && (
                  <Button variant="outline" onClick={() => onSaveCopy(template)} data-testid="save-as-mine">
                    <Copy aria-hidden="true" />
                    Save as my template
                  </Button>
                )}
                {extraActions}
              </div>
              <div className="flex flex-wrap gap-2">
                {audience === 'visitor' && (
                  <Button asChild data-testid="signup-to-use">
                    <Link to="/auth">Create a free account to use it</Link>
                  </Button>
                )}
                {audience === 'user' &&
                  templateUseLinks(template).map((link) => (
                    <Button key={link.href} asChild data-testid={link.testId}>
                      <Link to={link.href}>{link.label}</Link>
                    </Button>
                  ))}
              </div>
            </DialogFooter>
          </>
        )}
      </DialogContent>
    </Dialog>
  );
}
