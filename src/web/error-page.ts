// The pages' column of the error table (http/errors.ts): every failure of a page answers an
// HTML page with the same headers as any other (SECURITY.md), never a framework's JSON.
// One handler for the whole pages' scope (app.ts); a route that can show the refusal next to
// a field catches it itself and renders its form again.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { errorTable } from '../http/errors.ts';
import { failureOf, type Failure } from '../http/failure.ts';
import { sentence } from './forms.ts';
import { sendErrorPage } from './pages.ts';

/** The table's title, and its words or the failure's own as a sentence. */
export function sendFailurePage(reply: FastifyReply, request: FastifyRequest, failure: Failure): FastifyReply {
  const { title, message } = errorTable[failure.kind].page;
  const details = failure.details === undefined ? {} : { details: failure.details };
  return sendErrorPage(reply.headers(failure.headers), request, failure.status, title, message ?? sentence(failure.message), details);
}

/** Every failure of `web`'s routes and hooks answers as a page. */
export function answerErrorsAsPages(web: FastifyInstance): void {
  web.setErrorHandler((error, request, reply) => sendFailurePage(reply, request, failureOf(error, request)));
}
