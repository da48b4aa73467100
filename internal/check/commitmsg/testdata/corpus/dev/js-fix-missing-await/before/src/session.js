import { db } from './db.js';

export async function refreshSession(id) {
  const s = await db.sessions.find(id);
  if (!s) return null;
  s.expiresAt = Date.now() + 30 * 60 * 1000;
  db.sessions.save(s);
  return s;
}
