import { configError } from "../harness-error.js";

/**
 * Before a run against a broker image: a Docker engine must answer and hold the image (no registry
 * is assumed), or the run stops with exit 2 and says what to do. Answers the image's ID (its
 * digest), which the reports name.
 */
export async function preflightImage(image: string): Promise<string> {
  const { getContainerRuntimeClient, ImageName } = (await import("../adapters/testcontainers.js")).testcontainers;
  let client;
  try {
    client = await getContainerRuntimeClient();
  } catch (error) {
    throw configError(
      `no Docker engine is reachable for --broker-image (${(error as Error).message.split("\n")[0]}); start one, or run your broker with --broker-cmd or --broker-url`,
    );
  }
  if (!(await client.image.exists(ImageName.fromString(image)))) {
    throw configError(`the image ${image} is not in the local Docker engine; build it first (.ci/build-broker-image.sh builds the reference broker's)`);
  }
  return (await client.image.inspect(ImageName.fromString(image))).Id;
}
