export { fetchUser } from "./users";
export type { User } from "./users";
