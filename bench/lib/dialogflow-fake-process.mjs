// The local Dialogflow CX server (apps/server/src/test/dialogflow-cx-server.ts) in a process of its own, so the
// bench's direct calls and the product's calls both cross a process boundary to reach it. It reads the agent and
// the service account (email, project and public key PEM) as JSON from argv, prints its address as one JSON line,
// and serves until its standard input closes.
import { createPublicKey } from 'node:crypto';
import { startDialogflowCxServer } from '../../apps/server/src/test/dialogflow-cx-server.ts';

const { agent, account } = JSON.parse(process.argv[2] ?? '{}');
const server = await startDialogflowCxServer([agent]);
server.registerAccount(account.email, createPublicKey(account.publicKeyPem), [agent.projectId]);
process.stdout.write(`${JSON.stringify({ url: server.url, tokenUri: server.tokenUri })}\n`);
process.stdin.resume();
process.stdin.on('end', () => void server.close().then(() => process.exit(0)));
