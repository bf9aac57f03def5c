// Cal.com's default week: Monday to Friday, 09:00-17:00 in the schedule's zone. A schedule
// created without availability holds it, as Cal.com API v2's CreateScheduleInput says ("If not
// passed, the default availability is Monday to Friday from 09:00 to 17:00"), and a host with
// no schedule at all offers it (docs/integrating.md#slots).
import type { AvailabilityRange } from './store.ts';

export const DEFAULT_WEEK: readonly AvailabilityRange[] = [{ days: ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday'], startTime: '09:00', endTime: '17:00' }];
