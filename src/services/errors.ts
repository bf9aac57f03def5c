// Errors of the application services, shared by the web app and the CLI. The message is
// for the person who made the request and says what to fix.
export type ServiceErrorKind = 'validation' | 'not_found' | 'conflict' | 'forbidden';

export class ServiceError extends Error {
  constructor(
    readonly kind: ServiceErrorKind,
    message: string,
    /** The input field at fault, so a page can show the message next to it. */
    readonly field?: string,
  ) {
    super(message);
    this.name = 'ServiceError';
  }
}

export const validation = (message: string, field?: string) => new ServiceError('validation', message, field);
export const notFound = (message: string) => new ServiceError('not_found', message);
export const conflict = (message: string, field?: string) => new ServiceError('conflict', message, field);
export const forbidden = (message: string) => new ServiceError('forbidden', message);
