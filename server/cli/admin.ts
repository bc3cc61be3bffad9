/**
 * `npm run admin -- …` (server/cli/adminCommands.ts): the operator's rescue when the administrator
 * account is lost or locked (`unlock`, `reset-password`), firm provisioning (`firm …`) and who is
 * an operator (`operator …`). Exits 0 when done, 1 when refused (unknown user or firm, weak
 * password, duplicate name, invalid role, …), 2 on usage or another error.
 */
import { runAdminCommand } from './adminCommands';

/** All of stdin as text, or null when it is a terminal (nothing is piped in). */
async function readStdin(): Promise<string | null> {
  if (process.stdin.isTTY) return null;
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

runAdminCommand(process.argv.slice(2), {
  env: process.env,
  readStdin,
  out: (line) => console.log(line),
  err: (line) => console.error(line),
})
  .then((code) => process.exit(code))
  .catch((error: unknown) => {
    console.error(error);
    process.exit(2);
  });
