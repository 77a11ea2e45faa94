/** Collects tables and target verdicts; prints them as it goes and renders `bench/RESULTS.md`. */

export interface Verdict {
  scenario: string;
  /** What is compared, e.g. `S1 configured, ietf`. */
  row: string;
  headway: string;
  bestPeer: string;
  target: string;
  pass: boolean;
  /** Why it missed (printed next to MISS). */
  note?: string;
}

export class Report {
  readonly sections: string[] = [];
  readonly verdicts: Verdict[] = [];

  /** A Markdown table (printed at once). */
  table(title: string, intro: string, header: readonly string[], rows: readonly (readonly string[])[]): void {
    const lines = [
      `### ${title}`,
      '',
      ...(intro ? [intro, ''] : []),
      `| ${header.join(' | ')} |`,
      `| ${header.map((_, i) => (i === 0 ? '---' : '---:')).join(' | ')} |`,
      ...rows.map((r) => `| ${r.join(' | ')} |`),
      '',
    ];
    const text = lines.join('\n');
    this.sections.push(text);
    console.log(`\n${text}`);
  }

  note(text: string): void {
    this.sections.push(`${text}\n`);
    console.log(text);
  }

  verdict(v: Verdict): void {
    this.verdicts.push(v);
    console.log(
      `${v.pass ? 'PASS' : 'MISS'}  ${v.row}: Headway ${v.headway} (target ${v.target}; best peer ${v.bestPeer})${v.pass || !v.note ? '' : ` — ${v.note}`}`,
    );
  }

  verdictTable(): string {
    const lines = [
      '| scenario | Headway | best peer | target | result |',
      '| --- | ---: | ---: | --- | --- |',
      ...this.verdicts.map(
        (v) =>
          `| ${v.row} | ${v.headway} | ${v.bestPeer} | ${v.target} | ${v.pass ? 'PASS' : `**MISS**${v.note ? ` (${v.note})` : ''}`} |`,
      ),
    ];
    return lines.join('\n');
  }
}
