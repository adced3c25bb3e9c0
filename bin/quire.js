#!/usr/bin/env node
// Quire's command line. TypeScript sources run through tsx's loader, so a checkout
// needs no build step: `npm install` then `npx quire …`.
import { register } from 'tsx/esm/api';

register();
await import('../src/cli.ts');
