// Vitest global setup: one notice for the run when suites skip because a program is missing.
import { INSTALL, missingTools } from './tools.js';

export default function setup(): void {
  const missing = missingTools();
  if (missing.length === 0 || process.env.CI === 'true') return;
  process.stderr.write(
    `\nNOTICE: ${missing.join(', ')} not installed: the suites that need ${missing.length === 1 ? 'it' : 'them'} are skipped. Install with: ${INSTALL}\n\n`,
  );
}
