import { BIN_MS, type DemoClientInfo } from './scenario.js';

/** One client's record, in bins of {@link BIN_MS} from the start of the run. */
export interface ClientSeries extends DemoClientInfo {
  /** Requests the server admitted, per bin. */
  admitted: number[];
  /** Requests the server refused (429), per bin. */
  refused: number[];
  /** Units left in the client's server bucket after the bin's last decision (`null`: no decision). */
  level: Array<number | null>;
  /** Milliseconds of waiting the client chose in the bin (pacing, gate or `Retry-After` sleeps). */
  waitedMs: number[];
  /** Calls of the job finished by the end of the bin. */
  done: number[];
  /** Calls that ended without a 200. */
  failed: number;
  /** Seconds from the start until the last call finished (`null` while running). */
  finishedS: number | null;
  /** Headway's gate for the key (`open`, `closed 480 ms (retry-after)`), `null` for other clients. */
  gate: string | null;
}

/** What the views and the report draw. */
export interface DemoData {
  binMs: number;
  /** Seconds since the start. */
  elapsedS: number;
  clients: ClientSeries[];
}

/** Records what the server decided and what the clients did, per client and per time bin. */
export class Recorder {
  readonly #startedAt: number;
  readonly #now: () => number;
  readonly #clients = new Map<string, ClientSeries>();

  constructor(clients: readonly DemoClientInfo[], now: () => number) {
    this.#now = now;
    this.#startedAt = now();
    for (const info of clients)
      this.#clients.set(info.id, {
        ...info,
        admitted: [],
        refused: [],
        level: [],
        waitedMs: [],
        done: [],
        failed: 0,
        finishedS: null,
        gate: null,
      });
  }

  /** Index of the current bin, with every series of `client` grown to hold it. */
  #bin(client: ClientSeries): number {
    const bin = Math.floor((this.#now() - this.#startedAt) / BIN_MS);
    while (client.admitted.length <= bin) {
      client.admitted.push(0);
      client.refused.push(0);
      client.level.push(null);
      client.waitedMs.push(0);
      client.done.push(client.done.at(-1) ?? 0);
    }
    return bin;
  }

  #with(id: string, update: (client: ClientSeries, bin: number) => void): void {
    const client = this.#clients.get(id);
    if (client) update(client, this.#bin(client));
  }

  /** The server decided a request of `id`: admitted or refused, `remaining` units left. */
  decision(id: string, allowed: boolean, remaining: number | undefined): void {
    this.#with(id, (client, bin) => {
      if (allowed) client.admitted[bin]!++;
      else client.refused[bin]!++;
      if (remaining !== undefined) client.level[bin] = remaining;
    });
  }

  /** Client `id` chose to wait `ms` before a call or a retry. */
  waited(id: string, ms: number): void {
    this.#with(id, (client, bin) => {
      client.waitedMs[bin]! += ms;
    });
  }

  /** A call of `id`'s job finished (`ok`: with a 200). */
  finished(id: string, ok: boolean): void {
    this.#with(id, (client, bin) => {
      client.done[bin]!++;
      if (!ok) client.failed++;
    });
  }

  /** Client `id`'s whole job is done. */
  jobDone(id: string): void {
    this.#with(id, (client) => {
      client.finishedS = (this.#now() - this.#startedAt) / 1000;
    });
  }

  /** Sets the gate text shown for `id`. */
  gate(id: string, text: string): void {
    const client = this.#clients.get(id);
    if (client) client.gate = text;
  }

  /** The record so far, every series grown to the current bin. */
  data(): DemoData {
    const clients = [...this.#clients.values()];
    for (const client of clients) this.#bin(client);
    return {
      binMs: BIN_MS,
      elapsedS: (this.#now() - this.#startedAt) / 1000,
      clients: clients.map((c) => structuredClone(c)),
    };
  }
}
