import type { User } from "./types";

export function displayName(user: User): string {
  const name = user.profile?.name?.trim() ?? "";
  return name.length > 0 ? name : user.email;
}

export function initials(user: User): string {
  return displayName(user)
    .split(/\s+/)
    .map((w) => w[0]!.toUpperCase())
    .join("");
}
