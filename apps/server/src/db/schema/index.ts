export * from './tenants';
export * from './subscriptions';
export * from './system-settings';
