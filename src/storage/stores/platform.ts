// ApiStores (src/api/stores) over the repositories: one store per /v2 resource.
import type { ApiStores } from '../../api/stores/index.ts';
import { createApiAccessStore } from '../repositories/api-access.ts';
import type { Executor } from '../repositories/executor.ts';
import { createConnectedAppStore } from './platform-connected-apps.ts';
import { createEventTypeStore } from './platform-event-types.ts';
import { createMembershipStore } from './platform-memberships.ts';
import { createRoutingFormStore } from './platform-routing-forms.ts';
import { createScheduleStore } from './platform-schedules.ts';
import { createProfileStore, createTeamStore } from './platform-teams.ts';
import { createVerifiedResourceStore } from './platform-verified-resources.ts';
import { createWebhookStore } from './platform-webhooks.ts';
import { createWorkflowStore } from './platform-workflows.ts';

export function createPlatformStores(db: Executor): ApiStores {
  return {
    access: createApiAccessStore(db),
    connectedApps: createConnectedAppStore(db),
    eventTypes: createEventTypeStore(db),
    memberships: createMembershipStore(db),
    profiles: createProfileStore(db),
    routingForms: createRoutingFormStore(db),
    schedules: createScheduleStore(db),
    teams: createTeamStore(db),
    verifiedResources: createVerifiedResourceStore(db),
    webhooks: createWebhookStore(db),
    workflows: createWorkflowStore(db),
  };
}
