/**
 * Reports invalid input lines on stderr as `FILE:LINE: reason`. A file that is wrong throughout (a
 * field every line lacks) would bury the output in identical errors, so after the first few lines of a
 * file the rest are only counted and summed up once the file ends.
 */
export class InvalidLineReporter {
  private shown = 0;
  private hidden = 0;
  total = 0;

  constructor(
    private readonly stderr: NodeJS.WritableStream,
    private readonly prefix: string,
    private readonly maxPerFile = 10,
  ) {}

  report(file: string, line: number, error: string): void {
    this.total++;
    if (this.shown < this.maxPerFile) {
      this.shown++;
      this.stderr.write(`${this.prefix}: ${file}:${line}: ${error}\n`);
    } else {
      this.hidden++;
    }
  }

  /** Call after each file: prints how many of its invalid lines were not shown, then starts afresh. */
  endFile(file: string): void {
    if (this.hidden > 0) this.stderr.write(`${this.prefix}: ${file}: ${this.hidden} more invalid line(s) not shown\n`);
    this.shown = 0;
    this.hidden = 0;
  }
}
