import { THREAD_REPLY } from '@shared/campaigns';
import { Info } from 'lucide-react';
import { type Ref, useRef, useState } from 'react';
import { UnsafeLinksNotice } from '@/components/mail-links/unsafe-links-notice';
import { RichTextEditor, type RichTextEditorHandle } from '@/components/rich-text-editor/rich-text-editor';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { insertAt, type MergeTag } from '../../lib/merge-tags';
import type { StepErrors, VariantDraft } from '../../lib/step-form';
import { RewriteSelectionMenu } from './integrations';
import { MergeTagMenu } from './merge-tag-menu';

/** One variant's subject (with a merge-tag menu) and body (rich text with merge tags and AI rewrite). */
export function VariantFields({
  variant,
  tags,
  errors,
  readOnly,
  isFirstStep,
  onChange,
  bodyRef,
}: {
  variant: VariantDraft;
  tags: readonly MergeTag[];
  errors: StepErrors;
  readOnly: boolean;
  /** A follow-up's subject may be left empty: it then replies in the contact's thread. */
  isFirstStep: boolean;
  onChange: (patch: Partial<VariantDraft>) => void;
  bodyRef?: Ref<RichTextEditorHandle>;
}) {
  const subjectRef = useRef<HTMLInputElement>(null);
  const localBodyRef = useRef<RichTextEditorHandle | null>(null);
  const [selection, setSelection] = useState('');
  const subjectId = `step-subject-${variant.key}`;
  const subjectError = errors[`variants.${variant.key}.subject`];
  const subjectHintId = `${subjectId}-hint`;
  const threaded = !isFirstStep && variant.subject.trim() === '';
  const bodyError = errors[`variants.${variant.key}.bodyHtml`];

  const setBodyRef = (handle: RichTextEditorHandle | null) => {
    localBodyRef.current = handle;
    if (typeof bodyRef === 'function') bodyRef(handle);
    else if (bodyRef) bodyRef.current = handle;
  };

  const insertInSubject = (tag: string) => {
    const input = subjectRef.current;
    const { value, caret } = insertAt(
      variant.subject,
      tag,
      input?.selectionStart ?? variant.subject.length,
      input?.selectionEnd ?? variant.subject.length,
    );
    onChange({ subject: value });
    requestAnimationFrame(() => {
      input?.focus();
      input?.setSelectionRange(caret, caret);
    });
  };

  return (
    <div className="space-y-4">
      <div className="space-y-2">
        <div className="flex items-center justify-between gap-2">
          <Label htmlFor={subjectId}>Subject</Label>
          <MergeTagMenu
            tags={tags}
            onInsert={insertInSubject}
            disabled={readOnly}
            testId={`subject-merge-tag-${variant.key}`}
          />
        </div>
        <Input
          id={subjectId}
          ref={subjectRef}
          value={variant.subject}
          readOnly={readOnly}
          maxLength={200}
          placeholder={
            isFirstStep
              ? 'e.g. Quick question, {{ firstName | default: "there" }}'
              : 'Re: (the previous subject)'
          }
          aria-invalid={Boolean(subjectError)}
          aria-describedby={subjectError ? `${subjectId}-error` : isFirstStep ? undefined : subjectHintId}
          onChange={(event) => onChange({ subject: event.target.value.replace(/[\r\n]+/g, ' ') })}
          data-testid={`step-subject-${variant.key}`}
        />
        {subjectError && (
          <p
            id={`${subjectId}-error`}
            className="text-sm text-destructive"
            data-testid={`step-subject-error-${variant.key}`}
          >
            {subjectError}
          </p>
        )}
        {!subjectError && !isFirstStep && (
          <p
            id={subjectHintId}
            className="text-sm text-muted-foreground"
            data-testid={`step-subject-hint-${variant.key}`}
          >
            {threaded
              ? 'Sent as a reply in the same thread, from the same sender account.'
              : THREAD_REPLY.subjectHint}
          </p>
        )}
      </div>
      <div className="space-y-2">
        <Label id={`step-body-label-${variant.key}`}>Email body</Label>
        <RichTextEditor
          ref={setBodyRef}
          value={variant.bodyHtml}
          onChange={(html) => onChange({ bodyHtml: html })}
          label={`Email body, variant ${variant.key}`}
          readOnly={readOnly}
          onSelectionChange={setSelection}
          testId={`step-body-${variant.key}`}
          toolbarExtra={
            readOnly ? undefined : (
              <>
                <MergeTagMenu
                  tags={tags}
                  onInsert={(tag) => localBodyRef.current?.insertText(tag)}
                  testId={`body-merge-tag-${variant.key}`}
                />
                <RewriteSelectionMenu
                  text={selection}
                  onReplace={(text) => localBodyRef.current?.replaceSelection(text)}
                />
              </>
            )
          }
        />
        {bodyError && (
          <p className="text-sm text-destructive" data-testid={`step-body-error-${variant.key}`}>
            {bodyError}
          </p>
        )}
        <UnsafeLinksNotice html={variant.bodyHtml} testId={`step-unsafe-links-${variant.key}`} />
        <p className="flex items-start gap-1.5 text-xs text-muted-foreground">
          <Info className="mt-0.5 size-3.5 shrink-0" aria-hidden="true" />
          <span>
            Spintax varies the wording per contact: <code>{'{Hi|Hello|Good morning}'}</code> picks one for
            each person. Merge tags with a fallback, like <code>{'{{ firstName | default: "there" }}'}</code>,
            never leave a gap. An unsubscribe link and your postal address are added to every email.
          </span>
        </p>
      </div>
    </div>
  );
}
