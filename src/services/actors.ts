// Who acted, for the audit trail, when it was not a signed-in user: the operator at the
// server's shell, through the gatehouse command. Not a user id: no user can have it
// (ids are random base62), and the pages name it instead of showing "system".
export const CLI_OPERATOR = 'cli:operator';

/**
 * Who made a change, as its audit event records it: a user (through an application, whose
 * client id is kept beside) or CLI_OPERATOR.
 */
export interface Actor {
  actorId: string;
  clientId?: string | null;
}

/** How the pages and the CLI name the operator in an event's actor column. */
export const CLI_OPERATOR_LABEL = 'CLI (operator)';
