// The authorization endpoint (RFC 6749 §4.1) as named steps, one concept per file; decision.ts reads as the endpoint.
// The rest of src/ imports this folder through this file only, its public face; a unit test may call a step itself.
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
export { carriedParameters, type AuthorizationRequest, type PromptValue } from './request.ts';
export { validatePushedParameters, type AuthorizationValidation } from './validate.ts';
