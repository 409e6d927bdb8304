// The entry point (node dist/src/main.js, npm start, the image). The runtime settings are given where
// the process is started (src/runtime-settings.ts): this process is the service.
import { bootstrap } from './server.js';

await bootstrap();
