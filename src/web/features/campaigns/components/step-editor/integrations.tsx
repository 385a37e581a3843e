import { FileText, Sparkles, Wand2 } from 'lucide-react';
import { AiRewriteMenu, AiWriterDialog } from '@/components/ai-writer';
import { TemplatePickerDialog } from '@/components/templates/template-picker-dialog';
import { Button } from '@/components/ui/button';

/*
 * The step editor's doors to the template library (TemplatePickerDialog) and AI writing (AiWriterDialog,
 * AiRewriteMenu). Only this file adapts their APIs to the editor's `{ subject, html }` content.
 */

export interface PickedContent {
  subject: string;
  html: string;
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

/** Opens the AI brief; the streamed subject and body are offered to the editor like a template. */
export function WriteWithAiButton({
  onInsert,
  disabled,
}: {
  onInsert: (content: PickedContent) => void;
  disabled?: boolean;
}) {
  return (
    <AiWriterDialog
      kind="email"
      disabled={disabled}
      onInsert={({ subject, html }) => onInsert({ subject, html })}
      trigger={
        <Button type="button" variant="outline" size="sm" disabled={disabled} data-testid="step-write-ai">
          <Sparkles aria-hidden="true" />
          Write with AI
        </Button>
      }
    />
  );
}

/** Improve, shorten, rewrite or translate the text selected in the body editor. */
export function RewriteSelectionMenu({
  text,
  onReplace,
  disabled,
}: {
  text: string;
  onReplace: (text: string) => void;
  disabled?: boolean;
}) {
  return (
    <AiRewriteMenu
      text={text}
      onReplace={onReplace}
      disabled={disabled}
      trigger={
        <Button
          type="button"
          variant="ghost"
          size="sm"
          disabled={disabled}
          title={text.trim() ? 'Improve, shorten or rewrite the selection' : 'Select some text first'}
          data-testid="step-rewrite-ai"
        >
          <Wand2 aria-hidden="true" />
          Improve
        </Button>
      }
    />
  );
}
