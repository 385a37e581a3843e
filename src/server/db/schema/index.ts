export * from './audit';
export * from './auth';
export * from './dev-mailbox';
