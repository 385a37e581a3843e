export * from './audit';
export * from './auth';
export * from './contacts';
export * from './dev-mailbox';
export * from './imports';
export * from './payments';
