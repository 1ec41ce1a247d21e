// Required by cucumber as a support file (`require`), in the harness and in each --parallel worker, just before
// the step files load: their stack frames, and so each step's location, map to the TypeScript, while
// the ~1,000 modules loaded before them read no source map (a quarter of a second or more a process).
process.setSourceMapsEnabled(true);
