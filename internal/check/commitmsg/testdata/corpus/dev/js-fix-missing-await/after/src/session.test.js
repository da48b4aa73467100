import { refreshSession } from './session.js';
import { db } from './db.js';

test('refreshes an existing session', async () => {
  expect(await refreshSession('a')).not.toBeNull();
});

test('rejects when the save fails', async () => {
  db.sessions.save = () => Promise.reject(new Error('disk full'));
  await expect(refreshSession('a')).rejects.toThrow('disk full');
});
