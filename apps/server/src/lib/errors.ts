import type { ErrorCode } from '@flywheel/shared/http';

/** A coded error with the HTTP status and the message a person reads. */
export class AppError extends Error {
  constructor(
    readonly code: ErrorCode,
    readonly statusCode: number,
    message: string,
    readonly headers: Record<string, string> = {},
    /** More fields of the answer's envelope (the count to confirm, the budget left), beside code and message. */
    readonly details: Record<string, number> = {},
  ) {
    super(message);
    this.name = 'AppError';
  }
}

export const notFound = (message = 'Not found') => new AppError('NOT_FOUND', 404, message);
export const forbidden = (message = 'You do not have access to this workspace') =>
  new AppError('FORBIDDEN', 403, message);
