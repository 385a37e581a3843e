/*
 * Inbound mail's public surface: what other features may use to feed a message through the same path a
 * polled mailbox takes. The modules beside this file are its own.
 */
export { extractMessageIds } from './bounce-report';
export { processInboundMessage } from './process-inbound';
export { buildSimulatedMail } from './simulated-mail';
