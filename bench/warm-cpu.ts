import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { ROOT } from '../infra/bundles';
import type { WarmRow } from './warm-cpu-child';

/** 2. Warm per-request CPU per endpoint: the full stack against its bare floor (see warm-cpu-child.ts). */

export const WARM_ADDED_TARGET_MS = 0.3;

export interface WarmResult {
  rows: WarmRow[];
  samples: number;
  warmup: number;
}

export function warmCpu(options: { samples: number; warmup: number }): Promise<WarmResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'bench', 'warm-cpu-child.ts')], {
      cwd: ROOT,
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
      env: {
        ...process.env,
        NODE_ENV: 'production',
        TABLE_NAME: 'workspace-api',
        AWS_REGION: 'us-east-1',
        // Never contacted: the document client is answered in-process.
        DYNAMODB_ENDPOINT: 'http://127.0.0.1:9',
        // As in AWS: automations/trigger sends step 1 to SQS (answered in-process, bench/canned-services.ts).
        AUTOMATION_QUEUE_URL: 'https://sqs.us-east-1.amazonaws.com/000000000000/workspace-api-automation',
        // Event hand-offs go to the FIFO event queue, webhooks/redeliver's lane to the lane queue (SQS in AWS, answered in-process too).
        EVENT_QUEUE_URL: 'https://sqs.us-east-1.amazonaws.com/000000000000/workspace-api-events.fifo',
        EVENT_LANE_QUEUE_URL: 'https://sqs.us-east-1.amazonaws.com/000000000000/workspace-api-event-lanes',
        POWERTOOLS_SERVICE_NAME: 'workspace-api',
        POWERTOOLS_LOG_LEVEL: 'INFO',
        AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
        BENCH_WARM_SAMPLES: String(options.samples),
        BENCH_WARM_WARMUP: String(options.warmup),
      },
    });
    let stderr = '';
    let result: WarmResult | undefined;
    child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('message', (message) => (result = message as WarmResult));
    child.on('exit', (code) => (result ? resolve(result) : reject(new Error(`warm-CPU child exited with ${code}: ${stderr.slice(-2000)}`))));
  });
}
