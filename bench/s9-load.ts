/**
 * S9 load generator: run as `node --import tsx bench/s9-load.ts`, in its own process, for a whole
 * S9 run. Each stdin line `{"port":…,"ms":…,"connections":…}` is one autocannon run of about `ms`
 * against `http://127.0.0.1:<port>/`, answered with one line `{"rate":…}`: the 2xx answers per
 * second of the run's own start-to-finish time (it exits with an error on any non-2xx answer or
 * socket error). autocannon ends a run on its next sample tick after the duration, so the ticks
 * are 100 ms apart (its default, a second, would round every run up to whole seconds). One process for every run spares
 * each run a Node start and autocannon's load, so S9's time goes to more, shorter alternations.
 */
import { createInterface } from 'node:readline';
import autocannon from 'autocannon';

interface LoadRequest {
  port: number;
  ms: number;
  connections: number;
}

for await (const line of createInterface({ input: process.stdin })) {
  const { port, ms, connections } = JSON.parse(line) as LoadRequest;
  const result = await autocannon({
    url: `http://127.0.0.1:${port}/`,
    connections,
    duration: ms / 1000,
    sampleInt: 100,
  });
  if (result.non2xx > 0 || result.errors > 0)
    throw new Error(`S9: ${result.non2xx} non-2xx answers and ${result.errors} errors on port ${port}`);
  const seconds = (result.finish.getTime() - result.start.getTime()) / 1000;
  process.stdout.write(`${JSON.stringify({ rate: result['2xx'] / seconds })}\n`);
}
