import { db } from './db.js';

export async function refreshSession(id) {
  const s = await db.sessions.find(id);
  if (!s) return null;
  s.expiresAt = Date.now() + 30 * 60 * 1000;
  // The save was not awaited: a failed write was lost and callers saw a
  // session that was never stored.
  await db.sessions.save(s);
  return s;
}
