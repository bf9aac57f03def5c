// Fixtures the slot tests share: people and schedules made through the services.
import { createSchedule } from '../../../src/platform/schedules/service.ts';
import type { PlatformWorld } from './world.ts';

/**
 * A team of two whose only hours are Monday 09:00-11:00 in their own zones: Berlin (08:00-10:00Z
 * in January) and London (09:00-11:00Z), with a team event type.
 */
export async function mondayMorningTeam(world: PlatformWorld): Promise<{ berlin: string; london: string; teamId: string; eventTypeId: string }> {
  const berlin = await world.user();
  const london = await world.user();
  await createSchedule(world.ctx, { userId: berlin }, { name: 'Berlin', timeZone: 'Europe/Berlin', availability: [{ days: ['Monday'], startTime: '09:00', endTime: '11:00' }] });
  await createSchedule(world.ctx, { userId: london }, { name: 'London', timeZone: 'Europe/London', availability: [{ days: ['Monday'], startTime: '09:00', endTime: '11:00' }] });
  const teamId = await world.team(berlin);
  await world.join({ teamId }, london);
  return { berlin, london, teamId, eventTypeId: await world.eventType({ teamId }) };
}
