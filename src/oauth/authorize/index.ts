// The authorization endpoint (RFC 6749 §4.1) as named steps, one concept per file; decision.ts reads as the endpoint.
// The rest of the code imports this folder through this file only: what it exports is the endpoint's public face.
export {
  decideAuthorization,
  decideConsent,
  whereAuthorizationReturns,
  type AuthorizationDecision,
  type AuthorizationReturn,
  type ConsentDecision,
  type RedirectBack,
  type Requester,
  type ShowLogin,
  type UnknownChoice,
} from './decision.ts';
export type { ShowConsent } from './consent.ts';
export type { ErrorAnswer, ErrorPage, FatalReason, HeldBackError, NamedClient } from './error-answers.ts';
export { REQUEST_URI_PREFIX } from './pushed.ts';
export { authorizationParameters, carriedParameters, type AuthorizationRequest, type PromptValue } from './request.ts';
export { validatePushedParameters, type AuthorizationValidation } from './validate.ts';
