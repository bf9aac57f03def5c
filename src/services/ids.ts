// docs/rules.md#numbered-ids: what the platform names by a number takes it from a series:
// 1, 2, 3 … per series, never reused. The OAuth wing's ids (clients, grants, tokens) stay
// random: a client id is public and must not say how many clients there are before it.

/**
 * The series and the tables they number. Organizations and teams share one (the platform
 * keeps both in one table), and so do memberships and invitations (an accepted invitation
 * becomes the membership of its id).
 */
export type IdSeries =
  | 'users'
  | 'teams'
  | 'memberships'
  | 'event_types'
  | 'schedules'
  | 'bookings'
  | 'out_of_office_entries'
  | 'webhooks'
  | 'verified_resources'
  | 'workflows'
  | 'routing_form_responses'
  | 'connected_apps'
  | 'booking_attendees'
  | 'booking_references';

export interface IdSeriesStore {
  /**
   * The series' next id, as the decimal text the tables keep. On PostgreSQL a sequence's: a
   * transaction that rolls back leaves a gap. On SQLite the counter row is written in the
   * caller's transaction, so a rollback hands the number out again; nothing kept it.
   */
  next(series: IdSeries): Promise<string>;
  /**
   * The series' next `count` ids in one statement, increasing, as `next` would give them one
   * by one (none for 0), for rows written together (a booking's attendees). On PostgreSQL a
   * concurrent caller may take numbers between them: they are distinct, not always adjacent.
   */
  nextMany(series: IdSeries, count: number): Promise<string[]>;
}
