/**
 * Runs work(i) for every i in [0, count), at most `lanes` at a time: a slow broker then costs one
 * round trip per lane, not per call. It ends early when a call of work answers false (answering
 * false) or throws (rethrown once the calls in flight return).
 */
export async function inFlight(count: number, lanes: number, work: (i: number) => Promise<boolean | void>): Promise<boolean> {
  let next = 0;
  let going = true;
  const lane = async () => {
    while (going && next < count) {
      const i = next++;
      try {
        if ((await work(i)) === false) going = false;
      } catch (error) {
        going = false;
        throw error;
      }
    }
  };
  const lanesDone = await Promise.allSettled(Array.from({ length: Math.max(0, Math.min(lanes, count)) }, lane));
  const failed = lanesDone.find((r): r is PromiseRejectedResult => r.status === "rejected");
  if (failed) throw failed.reason;
  return going;
}
