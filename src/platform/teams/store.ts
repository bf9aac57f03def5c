// Team profiles and an organization's teams (the /v2 teams routes). Teams are created by
// services/teams/teams.ts (with their first owner); the routes read, change and delete them here.
import type { Team } from '../../services/teams/store.ts';

export type { Team };

export type TeamChanges = Partial<Pick<Team, 'name' | 'slug' | 'bio' | 'timeZone' | 'brandColor'>> & { updatedAt: number };

export interface TeamStore {
  /** The team of that id; undefined when there is none. */
  find(id: string): Promise<Team | undefined>;
  /**
   * Changes it and returns it as stored; undefined when there is no such team, 'slugTaken'
   * (nothing changed) when another team has the new slug.
   */
  update(id: string, changes: TeamChanges): Promise<Team | 'slugTaken' | undefined>;
  /** Removes it and everything of it (event types, bookings, forms...); false when there was none. */
  delete(id: string): Promise<boolean>;
  /** The organization's teams, oldest first. */
  listOfOrganization(organizationId: string, limit: number, offset: number): Promise<Team[]>;
}
