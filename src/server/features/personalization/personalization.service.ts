/*
 * Personalisation's public surface: what other features may use of merge tags, spintax, rendering one
 * recipient's copy, the spam score and the link checks. The modules beside this file are its own.
 */
export { scanTemplateUrls } from './link-sanitizer';
export { analyzeMergeTags, findMergeTagProblems, pathLabel, renderTemplate, suggestTag } from './merge-tags';
export {
  mergeScope,
  type PersonalizeContact,
  type PersonalizeSender,
  renderForContact,
  renderForQueue,
  renderSeed,
  SAMPLE_CONTACT,
  type SenderIdentity,
  toPersonalizeContact,
} from './personalize';
export {
  type CopyPlaceholders,
  findCopyPlaceholders,
  mergeTagPlaceholders,
  testSendWarnings,
} from './placeholders';
export { builtinVerdict, type EngineVerdict, scoreComposedMessage } from './spam-engine';
export { extractLinks, htmlImageOnly, scoreSpam, visibleText } from './spam-rules';
export { parseSpamAssassinReport } from './spamassassin';
export { flattenSpintax } from './spintax';
