// The verify stage runs stage 1 of the one validation entry point (validation/validate-task.ts);
// this module only names it for the graph's side.
export { verifyTask, type Verification } from "../../validation/validate-task.js";
