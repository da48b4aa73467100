export { getUser } from "./users";
export type { User } from "./users";
