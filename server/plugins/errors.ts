/**
 * The error shape of every non-2xx answer: `{ message, code }` (DESIGN.md section 3). AppErrors
 * keep their status; schema validation failures are 400; anything else is a 500 whose details go
 * to the log, never to the client.
 */
import type { FastifyError, FastifyInstance } from 'fastify';
import { MESSAGES } from '@common/messages';
import { AppError } from '../errors';

/** Installs the error handler. */
export function registerErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError | AppError, request, reply) => {
    if (error instanceof AppError) {
      return reply
        .code(error.status)
        .headers(error.headers)
        .send({ message: error.message, code: error.code });
    }
    if (error.validation) {
      return reply
        .code(400)
        .send({ message: `Invalid request: ${error.message}`, code: 'validation_error' });
    }
    const status = error.statusCode;
    if (status && status >= 400 && status < 500) {
      return reply.code(status).send({
        message: error.message,
        code: error.code?.toLowerCase() ?? 'bad_request',
      });
    }
    request.log.error({ err: error }, 'request failed');
    return reply.code(500).send({ message: MESSAGES.internalError, code: 'internal_error' });
  });
}
