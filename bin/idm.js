#!/usr/bin/env node
// The whole CLI lives in the bundle built from src/ (npm run build); this file only hands over argv
// and sets the exit code, so that nothing deep inside ever calls process.exit.
import { main } from '../dist/main.js';

process.exitCode = await main(process.argv);
