/**
 * What a call of work answers when the broker refused it because other calls were in flight with it
 * (a JSON-RPC error to a call made alongside others): it is made again, alone.
 */
export const REFUSED_TOGETHER = Symbol("refused together");

/**
 * Runs work(i, together, lane) for every i in [0, count), at most `lanes` at a time: a slow broker then
 * costs one round trip per lane, not per call. It ends early when a call of work answers false
 * (answering false) or throws (rethrown once the calls in flight return). A call that answers
 * REFUSED_TOGETHER turns the rest to one call at a time (`together` false, lane 0), that call first,
 * for a broker that cannot take calls in flight together; `onInTurn` hears of it once.
 */
export async function inFlight(
  count: number,
  lanes: number,
  work: (i: number, together: boolean, lane: number) => Promise<boolean | void | typeof REFUSED_TOGETHER>,
  onInTurn?: () => void,
): Promise<boolean> {
  let next = 0;
  let going = true;
  let inTurn = false;
  const again: number[] = [];
  const lane = async (laneIndex: number) => {
    while (going && !inTurn && next < count) {
      const i = next++;
      try {
        const answer = await work(i, true, laneIndex);
        if (answer === REFUSED_TOGETHER) {
          again.push(i);
          inTurn = true;
        } else if (answer === false) going = false;
      } catch (error) {
        going = false;
        throw error;
      }
    }
  };
  const lanesDone = await Promise.allSettled(Array.from({ length: Math.max(0, Math.min(lanes, count)) }, (_, k) => lane(k)));
  const failed = lanesDone.find((r): r is PromiseRejectedResult => r.status === "rejected");
  if (failed) throw failed.reason;
  if (!going || !inTurn) return going;
  onInTurn?.();
  for (const i of [...again.sort((a, b) => a - b), ...Array.from({ length: count - next }, (_, k) => next + k)]) {
    // Alone, a refusal is the broker's answer: work judges it, and REFUSED_TOGETHER stops like false.
    const answer = await work(i, false, 0);
    if (answer === false || answer === REFUSED_TOGETHER) return false;
  }
  return true;
}
