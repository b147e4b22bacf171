// npm run test:stress: the default settings for test/stress/ only, one file at a time (each test
// already runs a hundred processes).
import { defineConfig } from 'vitest/config';
import base from './vitest.config.js';

export default defineConfig({ ...base, test: { ...base.test, include: ['test/stress/**/*.test.ts'], exclude: ['**/node_modules/**'], maxWorkers: 1 } });
