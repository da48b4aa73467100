export { default as Badge } from "./Badge";
export { default as Button } from "./Button";
