export interface User {
  id: string;
  name: string;
}

export async function getUser(id: string): Promise<User> {
  const r = await fetch(`/api/users/${id}`);
  if (!r.ok) throw new Error(`user ${id}: ${r.status}`);
  return r.json();
}
