// `npm run build:web`: builds the app now rather than at the next start.
import { ensureWebApp } from './build.ts';

console.log(await ensureWebApp((message) => console.log(message)));
