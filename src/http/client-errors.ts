// Requests Node's HTTP parser cannot read (docs/rules.md#bad-input: a 4xx that says what to fix). They never
// reach a route, and Fastify's default answers every one "Client Error"; the parser knows
// what it refused ("Duplicate Content-Length", "Invalid header token"), and the developer of
// a hand-rolled client, or the operator of a proxy, needs exactly that to fix it. Timeouts
// and oversized headers keep their own statuses (408, 431).
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyServerOptions } from 'fastify';
import { errorTable } from './errors.ts';

type ParserError = Error & { code?: string; reason?: string };

function answerFor(error: ParserError): [status: number, message: string] {
  if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT') return [408, 'the request did not arrive in time: send the whole request promptly'];
  if (error.code === 'HPE_HEADER_OVERFLOW') return [431, 'the request headers are too large'];
  const reason = error.reason ?? error.message.replace(/^Parse Error: /, '');
  return [400, `the HTTP request could not be read: ${reason}${error.code ? ` (${error.code})` : ''}`];
}

export const answerClientError: NonNullable<FastifyServerOptions['clientErrorHandler']> = (error: ParserError, socket: Socket) => {
  // A reset connection has nobody to answer (Node's own rule, as Fastify's default).
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, message] = answerFor(error);
  const body = JSON.stringify({ status: 'error', error: { code: errorTable.bad_request.api, message } });
  if (socket.writable) {
    socket.write(`HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Length: ${Buffer.byteLength(body)}\r\nContent-Type: application/json; charset=utf-8\r\nX-Content-Type-Options: nosniff\r\nCache-Control: no-store\r\nConnection: close\r\n\r\n${body}`);
  }
  socket.destroy(error);
};
