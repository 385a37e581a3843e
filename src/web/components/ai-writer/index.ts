export { AiRewriteMenu } from './ai-rewrite-menu';
export { AiNotConfigured, AiUsage } from './ai-status-notice';
export { type AiDraftResult, AiWriterDialog } from './ai-writer-dialog';
export { toSafeHtml } from './safe-html';
export { streamAiText } from './stream';
export { useAiStatus } from './use-ai-status';
