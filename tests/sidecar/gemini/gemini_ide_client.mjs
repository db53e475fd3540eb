// The Gemini CLI's own IDE client (IdeClient from @google/gemini-cli-core) against the
// Ambient Notes sidecar. It finds the server as the CLI does (the companion file for the
// IDE's pid, or GEMINI_CLI_IDE_SERVER_PORT / GEMINI_CLI_IDE_AUTH_TOKEN), then prints one
// JSON object per line: what it connected to, each IDE context it receives, and the
// outcome of each diff it is asked to open. Commands arrive as JSON lines on stdin:
//   {"openDiff": {"filePath": "...", "newContent": "..."}}   {"quit": true}
import readline from 'node:readline';
import { IdeClient } from '@google/gemini-cli-core/dist/src/ide/ide-client.js';
import { ideContextStore } from '@google/gemini-cli-core/dist/src/ide/ideContext.js';

const say = (event) => process.stdout.write(JSON.stringify(event) + '\n');

const client = await IdeClient.getInstance();
ideContextStore.subscribe((context) => say({ event: 'context', context: context ?? null }));
await client.connect({ logToConsole: false });
const state = client.getConnectionStatus();
say({
  event: 'connected',
  status: state.status,
  details: state.details ?? null,
  ide: client.getCurrentIde() ?? null,
  diffing: client.isDiffingEnabled(),
});

const lines = readline.createInterface({ input: process.stdin });
for await (const line of lines) {
  const command = JSON.parse(line);
  if (command.openDiff) {
    const { filePath, newContent } = command.openDiff;
    try {
      const result = await client.openDiff(filePath, newContent);
      say({ event: 'diff', filePath, result });
    } catch (error) {
      say({ event: 'diff', filePath, error: String(error?.message ?? error) });
    }
  } else if (command.quit) {
    break;
  }
}
await client.disconnect();
say({ event: 'disconnected' });
process.exit(0);
