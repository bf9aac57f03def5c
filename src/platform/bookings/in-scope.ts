// A booking as the caller may reach it (docs/rules.md#membership-rules): one of the host's, the
// team's or the organization's, and another's booking answers as a missing one does, 404.
import { notFound } from '../authorization-server.ts';
import type { Booking, BookingScope, BookingStore } from './store.ts';

export async function bookingInScope(store: Pick<BookingStore, 'findScoped'>, scope: BookingScope, uid: string): Promise<Booking> {
  const found = await store.findScoped(scope, uid);
  if (found === undefined) throw notFound('no such booking');
  return found;
}
