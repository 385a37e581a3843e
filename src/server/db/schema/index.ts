export * from './audit';
export * from './auth';
export * from './campaigns';
export * from './contacts';
export * from './dev-mailbox';
export * from './imports';
export * from './payments';
export * from './sending';
