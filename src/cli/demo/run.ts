import { startServer } from '../../server/index.js';
import { makeNodeClients, runJob } from './clients.js';
import { type DemoData, Recorder } from './recorder.js';
import { BURST, clientOfPath, type DemoClientInfo, nodeClients, RATE } from './scenario.js';
import { type SummaryRow, summarize } from './summary.js';

/** The end of a run. */
export interface DemoResult {
  data: DemoData;
  summary: SummaryRow[];
}

/** The reference server up and the clients ready; `run` starts them all at once. */
export interface PreparedDemo {
  serverUrl: string;
  /**
   * Runs every Node client's job (and waits for `others`, e.g. the browser's), calling `onTick`
   * with the record every `tickMs` and once at the end.
   */
  run(options: {
    clients: readonly DemoClientInfo[];
    onTick: (data: DemoData) => void;
    tickMs: number;
    others?: (recorder: Recorder) => Promise<void>;
  }): Promise<DemoResult>;
  close(): Promise<void>;
}

/** Starts the reference server: a token bucket of {@link RATE}/s, burst {@link BURST}, per client, IETF headers. */
export async function prepareDemo(): Promise<PreparedDemo> {
  let recorder: Recorder | undefined;
  const server = await startServer({
    rate: RATE,
    burst: BURST,
    headers: 'ietf',
    limiter: {
      key: (request) => clientOfPath(request.url),
      onDecision: (event) => recorder?.decision(event.key, event.allowed, event.decision?.remaining),
    },
  });
  return {
    serverUrl: server.url,
    close: () => server.close(),
    async run({ clients, onTick, tickMs, others }) {
      const current = new Recorder(clients, () => performance.now());
      recorder = current;
      const runnable = makeNodeClients(current);
      const tick = () => {
        for (const client of Object.values(runnable)) client.poll();
        onTick(current.data());
      };
      const timer = setInterval(tick, tickMs);
      try {
        await Promise.all([
          ...nodeClients.map((info) => runJob(current, info.id, server.url, runnable[info.id]!.call)),
          others?.(current),
        ]);
      } finally {
        clearInterval(timer);
      }
      tick();
      const data = current.data();
      return { data, summary: summarize(data.clients) };
    },
  };
}
