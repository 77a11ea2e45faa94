/** Command line of `npm run bench`. */

export interface BenchArgs {
  /** Scenarios to run (upper case, e.g. `S1`, `S1B`); empty = all. */
  scenarios: string[];
  /** Repetitions per measurement (medians are reported). */
  reps: number;
  /** One short rep of S1, S4 and S6, for CI. */
  smoke: boolean;
  /** Every cell of every scenario (the default trims S1b, S3, S4, S5 and S6 to stay near 6 minutes). */
  full: boolean;
  /** Where the Markdown report goes; `''` = do not write. */
  out: string;
  /** Internal (the runner's children): write `{ sections, verdicts }` here instead of a report. */
  json: string;
  /** Internal: run the default profile's trimmed cells even though a scenario is named. */
  trimmed: boolean;
  /** S5 only: run the Redis cells alone (no in-memory cells, no heap children). */
  redisOnly: boolean;
  /** S5 only: run the in-memory cells alone (decisions/s and heap, no Redis). */
  memoryOnly: boolean;
  /** S6 only: keep the cells whose server kind's id contains one of these (empty = all). */
  kinds: string[];
}

export const usage = `npm run bench -- [--scenario S1[,S1b,S2,S3,S4,S5,S6,S7,S8,S9]] [--reps N] [--full] [--smoke] [--out FILE|--no-write] [--kind ID[,ID]] [--redis-only|--memory-only]`;

export function parseArgs(argv: readonly string[]): BenchArgs {
  const args: BenchArgs = {
    scenarios: [],
    reps: 1,
    smoke: false,
    full: false,
    out: 'bench/RESULTS.md',
    json: '',
    trimmed: false,
    kinds: [],
    redisOnly: false,
    memoryOnly: false,
  };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const value = () => {
      const next = argv[++i];
      if (next === undefined) throw new Error(`${arg} needs a value\n${usage}`);
      return next;
    };
    if (arg === '--scenario' || arg === '--scenarios')
      args.scenarios.push(...value().toUpperCase().split(',').filter(Boolean));
    else if (arg === '--reps') {
      args.reps = Number(value());
      if (!Number.isInteger(args.reps) || args.reps < 1 || args.reps > 50)
        throw new Error(`--reps must be an integer in 1–50\n${usage}`);
    } else if (arg === '--smoke') args.smoke = true;
    else if (arg === '--out') args.out = value();
    else if (arg === '--no-write') args.out = '';
    else if (arg === '--json') args.json = value();
    else if (arg === '--trimmed') args.trimmed = true;
    else if (arg === '--redis-only') args.redisOnly = true;
    else if (arg === '--memory-only') args.memoryOnly = true;
    else if (arg === '--kind' || arg === '--kinds') args.kinds.push(...value().split(',').filter(Boolean));
    else if (arg === '--help' || arg === '-h') {
      console.log(usage);
      process.exit(0);
    } else throw new Error(`Unknown argument ${arg}\n${usage}`);
  }
  if (args.redisOnly && args.memoryOnly)
    throw new Error(`--redis-only and --memory-only exclude each other\n${usage}`);
  return args;
}
