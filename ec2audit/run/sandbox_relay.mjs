// Inside an episode sandbox (its own, empty network namespace): present the host endpoints the episode may
// reach, relayed through Unix sockets bound into the sandbox, on the same 127.0.0.1 ports as on the host,
// then run the command and exit with its status. Usage: node sandbox_relay.mjs '{"PORT": "SOCKET"}' CMD...
import net from "node:net";
import os from "node:os";
import { spawn } from "node:child_process";

const [routes, ...command] = process.argv.slice(2);

function listen(port, socketPath) {
  const server = net.createServer((inside) => {
    const host = net.connect(socketPath);
    inside.pipe(host);
    host.pipe(inside);
    inside.on("error", () => host.destroy());
    host.on("error", () => inside.destroy());
  });
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(Number(port), "127.0.0.1", resolve);
  });
}

try {
  await Promise.all(Object.entries(JSON.parse(routes)).map(([port, path]) => listen(port, path)));
} catch (error) {
  process.stderr.write(`sandbox relay: ${error.message}\n`);
  process.exit(125);
}
const child = spawn(command[0], command.slice(1), { stdio: "inherit" });
for (const signal of ["SIGTERM", "SIGINT", "SIGHUP"]) process.on(signal, () => child.kill(signal));
child.on("error", (error) => {
  process.stderr.write(`sandbox relay: cannot run ${command[0]}: ${error.message}\n`);
  process.exit(127);
});
child.on("exit", (code, signal) => process.exit(code ?? 128 + (os.constants.signals[signal] ?? 9)));
