export * from './tenancy';
export * from './menu';
export * from './auth';
export * from './accounts';
export * from './errors';
export * from './files';
export * from './text';
export * from './models';
