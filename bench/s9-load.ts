/**
 * S9 load generator: run as `node --import tsx bench/s9-load.ts`, in its own process, for a whole
 * S9 run. Each stdin line `{"port":…,"seconds":…,"connections":…}` is one autocannon run against
 * `http://127.0.0.1:<port>/`, answered with one line `{"rate":…}`: the 2xx answers per second (it
 * exits with an error on any non-2xx answer or socket error). One process for every run spares
 * each run a Node start and autocannon's load, so S9's time goes to more, shorter alternations.
 */
import { createInterface } from 'node:readline';
import autocannon from 'autocannon';

interface LoadRequest {
  port: number;
  seconds: number;
  connections: number;
}

for await (const line of createInterface({ input: process.stdin })) {
  const { port, seconds, connections } = JSON.parse(line) as LoadRequest;
  const result = await autocannon({ url: `http://127.0.0.1:${port}/`, connections, duration: seconds });
  if (result.non2xx > 0 || result.errors > 0)
    throw new Error(`S9: ${result.non2xx} non-2xx answers and ${result.errors} errors on port ${port}`);
  process.stdout.write(`${JSON.stringify({ rate: result['2xx'] / result.duration })}\n`);
}
