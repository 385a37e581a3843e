import { FileText, Sparkles, Wand2 } from 'lucide-react';
import { TemplatePickerDialog } from '@/components/templates/template-picker-dialog';
import { Button } from '@/components/ui/button';
import { toast } from '@/hooks/use-toast';

/*
 * The step editor's doors to the template library ([TPL] TemplatePickerDialog) and AI writing ([AI]
 * AiWriterDialog / AiRewriteMenu). PLACEHOLDER_PENDING_INTEGRATION: those components are built at the
 * same time; until they land these buttons say so. Only this file adapts their APIs.
 */

export interface PickedContent {
  subject: string;
  html: string;
}

function notYet(what: string) {
  toast({ title: `${what} is not connected yet`, description: 'PLACEHOLDER_PENDING_INTEGRATION' });
}

export function UseTemplateButton({
  onPick,
  disabled,
}: {
  onPick: (content: PickedContent) => void;
  disabled?: boolean;
}) {
  return (
    <TemplatePickerDialog
      kind="email"
      onPick={(template) => onPick({ subject: template.subject, html: template.bodyHtml })}
      trigger={
        <Button variant="outline" size="sm" disabled={disabled} data-testid="step-use-template">
          <FileText aria-hidden="true" />
          Use a template
        </Button>
      }
    />
  );
}

export function WriteWithAiButton({
  disabled,
}: {
  onInsert: (content: PickedContent) => void;
  disabled?: boolean;
}) {
  return (
    <Button
      variant="outline"
      size="sm"
      disabled={disabled}
      onClick={() => notYet('AI writing')}
      data-testid="step-write-ai"
    >
      <Sparkles aria-hidden="true" />
      Write with AI
    </Button>
  );
}

export function RewriteSelectionMenu({
  text,
  disabled,
}: {
  text: string;
  onReplace: (text: string) => void;
  disabled?: boolean;
}) {
  return (
    <Button
      variant="ghost"
      size="sm"
      disabled={disabled || !text.trim()}
      onClick={() => notYet('AI rewriting')}
      title={text.trim() ? 'Improve, shorten or rewrite the selection' : 'Select some text first'}
    >
      <Wand2 aria-hidden="true" />
      Improve
    </Button>
  );
}
