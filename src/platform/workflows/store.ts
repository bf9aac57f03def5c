// Team workflows: reminders and notifications around a team's bookings (the /v2 workflows
// routes). Stored only: sending is outside this service.

export interface WorkflowStep {
  action: string;
  sendTo?: string;
  template?: 'REMINDER' | 'CUSTOM';
  subject?: string;
  body: string;
}

export interface Workflow {
  id: string;
  teamId: string;
  name: string;
  trigger: string;
  timeOffsetMinutes: number;
  steps: WorkflowStep[];
  activeOnEventTypeIds: string[];
  active: boolean;
  createdAt: number;
  updatedAt: number;
}

export type WorkflowChanges = Partial<Pick<Workflow, 'name' | 'trigger' | 'timeOffsetMinutes' | 'steps' | 'activeOnEventTypeIds' | 'active'>> & { updatedAt: number };

export interface WorkflowStore {
  /** Inserts it; a duplicate id throws. */
  insert(workflow: Workflow): Promise<void>;
  /** The team's workflow of that id; undefined when the team has none. */
  find(teamId: string, id: string): Promise<Workflow | undefined>;
  /** The team's workflows, oldest first. */
  list(teamId: string, limit: number, offset: number): Promise<Workflow[]>;
  /** Changes it; an unknown id changes nothing. */
  update(id: string, changes: WorkflowChanges): Promise<void>;
  /** Removes the team's workflow; false when the team has none of that id. */
  delete(teamId: string, id: string): Promise<boolean>;
}
