import { describe, expect, it } from 'vitest';
import { ACCESS_LOG_FIELDS } from '../../infra/api';
import { apiGatewayMonthly } from '../../bench/cost-model';
import { costModel, extrasPerMillion, PRICES } from '../../bench/report';

describe('the cost model', () => {
  it('adds logs, X-Ray and data transfer to every row, and the parts add up to the total', () => {
    // Prepare
    const page = {
      contacts: 100000,
      labels: 4,
      path: 'contacts/list',
      case: 'page 1 (limit 50)',
      calls: 2,
      readUnits: 2,
      writeUnits: 1,
      bytesRead: 20_000,
      responseBytes: 14_799,
    };
    const results = { scale: { rows: [page] } } as unknown as Parameters<typeof costModel>[0];

    // Act
    const [row] = costModel(results);

    // Assess
    expect(row.total).toBeCloseTo(row.apiGateway + row.lambda + row.dynamodb + row.logs + row.xray + row.transfer, 10);
    expect(row.logs).toBeCloseTo(0.73, 2);
    expect(row.xray).toBe(0.25);
    expect(row.transfer).toBeCloseTo(((14_799 + PRICES.responseHeaderBytes) / 2 ** 30) * 1e6 * 0.09, 10);
  });

  it('prices logs at ≈ $0.97 per million before the access log was trimmed, ≈ $0.73 after', () => {
    // Prepare: the 21-field access log line the stage wrote before, at its measured size.
    const before = { ...PRICES, logBytesPerRequest: PRICES.logBytesPerRequest - 200 + 723 };

    // Act
    const now = extrasPerMillion(0).logs;
    const then = (before.logBytesPerRequest / 2 ** 30) * 1e6 * PRICES.logsIngestPerGb;

    // Assess
    expect(then).toBeCloseTo(0.97, 2);
    expect(now).toBeCloseTo(0.73, 2);
    expect(Object.keys(ACCESS_LOG_FIELDS)).toHaveLength(7);
  });

  it("prices API Gateway REST through its tiers: 2.59 billion requests a month are ≈ $6.8k, not the flat rate's $9.1k", () => {
    // Act
    const month = apiGatewayMonthly(2.592e9);
    const firstTier = apiGatewayMonthly(333e6);
    const intoSecond = apiGatewayMonthly(334e6);
    const beyond = apiGatewayMonthly(21e9) - apiGatewayMonthly(20e9);

    // Assess
    expect(month).toBeCloseTo(333 * 3.5 + 667 * 2.8 + 1592 * 2.38, 6);
    expect(Math.round(month / 100) / 10).toBe(6.8);
    expect(2592 * 3.5).toBeCloseTo(9072, 6);
    expect(firstTier).toBeCloseTo(333 * 3.5, 6);
    expect(intoSecond - firstTier).toBeCloseTo(2.8, 6);
    expect(beyond).toBeCloseTo(1000 * 1.51, 6);
    expect(apiGatewayMonthly(0)).toBe(0);
  });
});
