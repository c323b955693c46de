import { Logger } from '@aws-lambda-powertools/logger';

/** The service's structured JSON logger (Powertools); one per container. */
export const logger = new Logger({ serviceName: process.env.POWERTOOLS_SERVICE_NAME ?? 'workspace-api' });
