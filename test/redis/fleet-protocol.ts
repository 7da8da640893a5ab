/** What the fleet's worker processes tell their parent, and the secret they share with it. */

/** The webhook secret of every worker in the fleet tests. */
export const FLEET_SECRET = 'whsec_fleet_6c1e9d';

/** A message from a worker over IPC. */
export type WorkerMessage =
  | { type: 'ready'; port: number; pid: number }
  | { type: 'started'; reference: string; pid: number }
  | { type: 'ran'; reference: string; pid: number };
