import { refreshSession } from './session.js';

test('refreshes an existing session', async () => {
  expect(await refreshSession('a')).not.toBeNull();
});
