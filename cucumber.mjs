// Default profile for `npx cucumber-js` (run with NODE_OPTIONS='--import tsx'); lomi-conformance passes its own.
export default {
  paths: ["features/**/*.feature"],
  import: ["steps/**/*.ts"],
  strict: true,
  format: ["progress"],
};
