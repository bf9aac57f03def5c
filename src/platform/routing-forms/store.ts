// Routing forms of a team or an organization, and their responses (the /v2 routing forms
// routes).

export interface FormField {
  id: string;
  label: string;
  type: string;
  required?: boolean;
  options?: string[];
}

/** A response: field id → answer. */
export type FormAnswers = Record<string, string | number | string[]>;

/** A team's forms; or an organization's: its own and its teams'. */
export type FormScope = { teamId: string } | { organizationId: string };

export interface RoutingForm {
  id: string;
  teamId: string | null;
  organizationId: string | null;
  name: string;
  description: string;
  fields: FormField[];
  disabled: boolean;
  createdAt: number;
  updatedAt: number;
}

export interface FormResponse {
  id: string;
  formId: string;
  answers: FormAnswers;
  createdAt: number;
  updatedAt: number;
}

export interface RoutingFormStore {
  /** Inserts it; a duplicate id throws. */
  insert(form: RoutingForm): Promise<void>;
  /** The form only if it is in the scope; undefined otherwise. */
  find(scope: FormScope, id: string): Promise<RoutingForm | undefined>;
  /** The scope's forms, oldest first. */
  list(scope: FormScope, limit: number, offset: number): Promise<RoutingForm[]>;
  /** Inserts it; a duplicate id throws, an unknown form id throws (foreign key). */
  insertResponse(response: FormResponse): Promise<void>;
  /** The form's responses, oldest first. */
  listResponses(formId: string, limit: number, offset: number): Promise<FormResponse[]>;
  /** The form's response of that id; undefined when the form has none. */
  findResponse(formId: string, id: string): Promise<FormResponse | undefined>;
  /** Replaces a response's answers; an unknown id changes nothing. */
  updateResponse(id: string, answers: FormAnswers, updatedAt: number): Promise<void>;
  /** Removes a response; an unknown id removes nothing. */
  deleteResponse(id: string): Promise<void>;
}
