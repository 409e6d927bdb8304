// The entry point (node dist/src/main.js, npm start, the image): it loads nothing of the service until
// the process runs with the runtime settings, so a process started without them stays small while it
// runs the service as its child.
import { startWithRuntimeSettings } from './runtime-settings.js';

if (!startWithRuntimeSettings()) {
  const { bootstrap } = await import('./server.js');
  await bootstrap();
}
