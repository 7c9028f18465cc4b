// `policy eval --batch`: one request a line in (`{"action":…,"destination":…}` or
// `action destination`), one JSON decision a line out. A malformed line becomes an error record and
// the batch goes on. Pure: the command does the reading and writing.
export { BatchProcessor } from './batch-bytes.js';
export {
  type BatchCounts,
  type BatchLineResult,
  type BatchOptions,
  type BatchRequest,
  evaluateLine,
  formatDecisionLine,
  formatErrorLine,
  type McpLineResult,
  parseRequestLine,
} from './batch-lines.js';
