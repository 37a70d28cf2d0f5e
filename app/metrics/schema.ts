/** GET /metrics takes no parameters; it answers Prometheus text (format 0.0.4). */
import { z } from 'zod';

export const metricsQuery = z.object({});
