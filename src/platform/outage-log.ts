/** What an OutageLog writes to: a Nest Logger fits. */
export interface OutageLogger {
  warn(message: string): void;
  log(message: string): void;
}

/**
 * Logs an outage of something the service depends on (Redis, the database) once when it begins and
 * once when it ends (docs/operations.md, "Logs"), however many failures it meets in between: a poll
 * twice a second or a breaker that retries every few seconds does not fill the log while it lasts.
 */
export class OutageLog {
  private down = false;

  constructor(private readonly logger: OutageLogger) {}

  /** Whether an outage has begun and not ended. */
  get ongoing(): boolean {
    return this.down;
  }

  /** A failure: the first of an outage is logged (warn) with `message`, the later ones are not. */
  failed(message: string, error?: unknown): void {
    if (this.down) return;
    this.down = true;
    this.logger.warn(error === undefined ? message : `${message}: ${error instanceof Error ? error.message : String(error)}`);
  }

  /** A success: logged (info) with `message` only when it ends an outage. */
  recovered(message: string): void {
    if (!this.down) return;
    this.down = false;
    this.logger.log(message);
  }
}
