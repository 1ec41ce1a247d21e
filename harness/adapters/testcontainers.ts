// Ryuk, testcontainers' reaper, is an image to pull, and no registry may be reachable: it is off
// unless the user says otherwise, and the harness removes its containers itself.
process.env.TESTCONTAINERS_RYUK_DISABLED ??= "true";

export const testcontainers = await import("testcontainers");
