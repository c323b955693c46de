import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { until } from '../support/eventually';
import { usePrivateStore } from '../support/private-store';

/**
 * The local step queue's receiver (scripts/local/runner-loop.ts) over the durable table
 * queue, with a stand-in runner that records what it is handed. An idle loop reads the
 * table only every `pollMs`: these tests set it to ten minutes where what they prove must
 * not wait for that read. The file has a store of its own: the loop takes every message
 * of `LOCALQ`, and other test files' handlers write there.
 */

const store = await usePrivateStore();
const { startRunnerLoop } = await import('../../scripts/local/runner-loop');
const { STEP_QUEUE, deleteLocalMessages, localMessageItem, localQueueDepth, receiveLocalMessages, tableStepQueue } =
  await import('../../scripts/local/table-step-queue');
const { db, tableName } = await import('../../shared/data/client');
const { PutCommand, QueryCommand } = await import('@aws-sdk/lib-dynamodb');
const { clock } = await import('../../shared/clock');

const TEN_MINUTES = 600_000;
const step = (executionId: string, notBefore: number) => ({ workspaceId: 'ws_runner', channelId: 'ch_runner', executionId, step: 1, notBefore });

/** A runner that records each step it is handed (its execution, receive count and when, on the service clock) and fails each execution's first `failures[id]` receives. */
function recordingRunner(failures: Record<string, number> = {}) {
  const handed: Array<{ executionId: string; receiveCount: number; at: number }> = [];
  const runner = async (event: SQSEvent): Promise<SQSBatchResponse> => {
    const batchItemFailures: Array<{ itemIdentifier: string }> = [];
    for (const record of event.Records) {
      const { executionId } = JSON.parse(record.body) as { executionId: string };
      const receiveCount = Number(record.attributes.ApproximateReceiveCount);
      handed.push({ executionId, receiveCount, at: clock.now() });
      if (receiveCount <= (failures[executionId] ?? 0)) batchItemFailures.push({ itemIdentifier: record.messageId });
    }
    return { batchItemFailures };
  };
  return { handed, runner };
}

let loops: Array<{ stop(): Promise<void> }> = [];
const start = async (options: Omit<Parameters<typeof startRunnerLoop>[0], 'redrive'>) => {
  const loop = await startRunnerLoop({ redrive: async () => ({ redriven: 0 }), redriveAtStart: false, redriveEveryMs: TEN_MINUTES, ...options });
  loops.push(loop);
  return loop;
};

/** A step written straight into the table queue, as another process writes it (this process hears nothing of it). */
async function writeToTable(executionId: string, visibleAt: number) {
  const item = localMessageItem({ messageId: `msg_${executionId}`, body: JSON.stringify(step(executionId, visibleAt)), visibleAt, receiveCount: 0 });
  await db.send(new PutCommand({ TableName: tableName(), Item: item }));
}

const drained = async () => (await localQueueDepth(STEP_QUEUE)).queued === 0;

afterEach(async () => {
  for (const loop of loops) await loop.stop();
  loops = [];
  // What a failed test left in the queue is not the next test's.
  const { Items = [] } = await db.send(
    new QueryCommand({ TableName: tableName(), KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': STEP_QUEUE } }),
  );
  await deleteLocalMessages(Items.map((item) => ({ messageId: item.messageId as string, body: '', visibleAt: item.visibleAt as number, receiveCount: 0 })));
});

afterAll(async () => {
  await store.close();
});

describe('the local step queue receiver', () => {
  it('takes a step this process enqueues at once, without waiting for its next read of the table, and deletes it once handled', async () => {
    // Prepare: the first read (at start) has found the queue empty
    const { handed, runner } = recordingRunner();
    await start({ runner, pollMs: TEN_MINUTES });
    await tableStepQueue.enqueue(step('ex_warm', clock.now()));
    await until(() => handed.length === 1, 'the first step');
    // Act
    await tableStepQueue.enqueue(step('ex_heard', clock.now()));
    await until(() => handed.length === 2, 'the hand-over');
    await until(drained, 'the delete');
    // Assess
    expect(handed.map(({ executionId, receiveCount }) => ({ executionId, receiveCount }))).toEqual([
      { executionId: 'ex_warm', receiveCount: 1 },
      { executionId: 'ex_heard', receiveCount: 1 },
    ]);
    expect(await localQueueDepth(STEP_QUEUE)).toEqual({ queued: 0, dead: 0 });
  });

  it('takes a delayed step when it becomes due, not before and without waiting for its next read of the table', async () => {
    // Prepare
    const { handed, runner } = recordingRunner();
    await start({ runner, pollMs: TEN_MINUTES });
    const notBefore = clock.now() + 300;
    // Act
    await tableStepQueue.enqueue(step('ex_delayed', notBefore));
    await until(() => handed.length === 1, 'the delayed step');
    // Assess
    expect(handed[0].executionId).toBe('ex_delayed');
    expect(handed[0].at).toBeGreaterThanOrEqual(notBefore);
  });

  it('takes a step another process wrote straight into the table at its next read', async () => {
    // Prepare: a step heard of here is taken first, so the read at start is past
    const { handed, runner } = recordingRunner();
    await start({ runner, pollMs: 100 });
    await tableStepQueue.enqueue(step('ex_here', clock.now()));
    await until(() => handed.length === 1, 'the step heard of');
    // Act
    await writeToTable('ex_elsewhere', clock.now());
    await until(() => handed.length === 2, 'the step written elsewhere');
    await until(drained, 'the delete');
    // Assess
    expect(handed.map(({ executionId }) => executionId)).toEqual(['ex_here', 'ex_elsewhere']);
  });

  it('takes a delayed step another process wrote when it becomes due: a read that leaves nothing due learns when the next one is', async () => {
    // Prepare: another process's delayed step is in the table, then one heard of here makes the loop read
    const { handed, runner } = recordingRunner();
    await start({ runner, pollMs: TEN_MINUTES });
    const visibleAt = clock.now() + 300;
    await writeToTable('ex_elsewhere_delayed', visibleAt);
    // Act
    await tableStepQueue.enqueue(step('ex_here_now', clock.now()));
    await until(() => handed.length === 2, 'both steps');
    // Assess
    expect(handed.map(({ executionId }) => executionId).sort()).toEqual(['ex_elsewhere_delayed', 'ex_here_now']);
    expect(handed.find(({ executionId }) => executionId === 'ex_elsewhere_delayed')!.at).toBeGreaterThanOrEqual(visibleAt);
  });

  it('takes at start, with its receive count, a step that a killed run had received and not settled, without waiting for its visibility timeout', async () => {
    // Prepare: a run received the step (hidden for 30 s) and was killed before it settled it
    await tableStepQueue.enqueue(step('ex_killed', clock.now()));
    const [received] = await receiveLocalMessages(10);
    const { handed, runner } = recordingRunner();
    // Act
    await start({ runner, pollMs: TEN_MINUTES });
    await until(() => handed.length === 1, 'the step', 60_000);
    await until(drained, 'the delete');
    // Assess: taken before the hidden copy became visible
    expect(handed.map(({ executionId, receiveCount }) => ({ executionId, receiveCount }))).toEqual([{ executionId: 'ex_killed', receiveCount: 2 }]);
    expect(handed[0].at).toBeLessThan(received.visibleAt);
  });

  it('retries a failed step with its receive count when its retry is due, without waiting for its next read of the table', async () => {
    // Prepare
    const { handed, runner } = recordingRunner({ ex_retried: 1 });
    await start({ runner, pollMs: TEN_MINUTES });
    // Act
    await tableStepQueue.enqueue(step('ex_retried', clock.now()));
    await until(() => handed.length === 2, 'the retry');
    await until(drained, 'the delete');
    // Assess
    expect(handed.map(({ executionId, receiveCount }) => ({ executionId, receiveCount }))).toEqual([
      { executionId: 'ex_retried', receiveCount: 1 },
      { executionId: 'ex_retried', receiveCount: 2 },
    ]);
    expect(await localQueueDepth(STEP_QUEUE)).toEqual({ queued: 0, dead: 0 });
  });
});
