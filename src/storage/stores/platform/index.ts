// ApiStores (src/platform/stores.ts) over the repositories: one store per platform resource.
import type { ApiStores } from '../../../platform/stores.ts';
import { createApiAccessStore } from '../../repositories/api-access.ts';
import type { Executor } from '../../repositories/executor.ts';
import { createBookingAttendeeStore } from './booking-attendees.ts';
import { createBookingProviderStore } from './booking-provider-records.ts';
import { createConnectedAppStore } from './connected-apps.ts';
import { createConnectionRequestStore } from './connection-requests.ts';
import { createEventTypeStore } from './event-types.ts';
import { createMembershipStore } from './memberships.ts';
import { createOutOfOfficeStore } from './out-of-office.ts';
import { createPhoneCallStore } from './phone-calls.ts';
import { createRoutingFormStore } from './routing-forms.ts';
import { createScheduleStore } from './schedules.ts';
import { createSlotStore } from './slots.ts';
import { createSlotReservationStore } from './slot-reservations.ts';
import { createProfileStore } from './profiles.ts';
import { createWorkflowStore } from './workflows.ts';

export function createPlatformStores(db: Executor): ApiStores {
  return {
    access: createApiAccessStore(db),
    bookingAttendees: createBookingAttendeeStore(db),
    bookingProviders: createBookingProviderStore(db),
    connectedApps: createConnectedAppStore(db),
    connectionRequests: createConnectionRequestStore(db),
    eventTypes: createEventTypeStore(db),
    memberships: createMembershipStore(db),
    outOfOffice: createOutOfOfficeStore(db),
    phoneCalls: createPhoneCallStore(db),
    profiles: createProfileStore(db),
    routingForms: createRoutingFormStore(db),
    schedules: createScheduleStore(db),
    slots: createSlotStore(db),
    slotReservations: createSlotReservationStore(db),
    workflows: createWorkflowStore(db),
  };
}
