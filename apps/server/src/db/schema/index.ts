export * from './tenants';
export * from './subscriptions';
export * from './system-settings';
export * from './auth';
export * from './users';
export * from './credentials';
export * from './rate-limits';
export * from './files';
