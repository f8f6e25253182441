// A warm OpenClaw worker: loads OpenClaw once, then runs `agent exec` turns one after another, each with
// its own config, state dir, workspace, HOME, TMPDIR and environment, as `openclaw agent exec` would.
// Usage: node openclaw_worker.mjs AGENT_EXEC#NAME LOGGER#NAME STATE_DB_CACHE#NAME (the modules of OpenClaw's
// bundle with agentExecCommand, flushLogger and closeOpenClawStateDatabaseAsync, and the names they are
// exported under). Reads one JSON request per line on stdin:
//   {"id": ID, "args": {agent exec options}, "env": {...}, "cwd": DIR, "stdout": FILE, "stderr": FILE, "logs": DIR}
// and answers each on stdout with one line `REPLY {"id": ID, "exit_code": N, "cpu_s": S}` once the turn ended, its
// databases were closed (OpenClaw keeps them open, process-wide, for a minute after a turn), every other
// process in the sandbox (the turn's tools and whatever they left running) was killed and the turn's log
// was moved into its folder: nothing of the episode is left in the worker but what OpenClaw keeps in memory.
// Between turns OpenClaw restores the environment, config snapshot and runtime paths it changed
// (agentExecCommand's own cleanup); this file restores what it changed itself.
import fs from "node:fs";
import { pathToFileURL } from "node:url";
import readline from "node:readline";

const REPLY = "\u0000ec2audit-reply ";
async function load(spec) {
  const [file, name] = spec.split("#");
  return (await import(pathToFileURL(file).href))[name];
}
const agentExecCommand = await load(process.argv[2]);
const flushLogger = await load(process.argv[3]);
const closeStateDatabases = await load(process.argv[4]);
const SANDBOXED = process.env.EC2AUDIT_WORKER_SANDBOXED === "1";
const LOG_DIR = "/tmp/openclaw"; // where OpenClaw logs; the sandbox's own /tmp
const DEVICES = SANDBOXED ? new Set(fs.readdirSync("/dev")) : new Set();

function removeAll(folder, keep = new Set()) {
  for (const name of fs.existsSync(folder) ? fs.readdirSync(folder) : []) {
    if (!keep.has(name)) fs.rmSync(`${folder}/${name}`, { recursive: true, force: true });
  }
}

// In the sandbox (whose root is read-only), a turn leaves its log and whatever it wrote to /tmp or /dev:
// the log moves into its episode folder, the rest is wiped. The next episode must find neither.
async function handOver(folder) {
  await flushLogger();
  if (!SANDBOXED) return;
  for (const name of fs.existsSync(LOG_DIR) ? fs.readdirSync(LOG_DIR) : []) {
    fs.cpSync(`${LOG_DIR}/${name}`, `${folder}/${name}`, { recursive: true });
  }
  removeAll("/tmp");
  removeAll("/dev/shm");
  removeAll("/dev", new Set([...DEVICES, "shm"]));
}
const writeOut = process.stdout.write.bind(process.stdout);
const writeErr = process.stderr.write.bind(process.stderr);

function ancestors() {
  const keep = new Set();
  for (let pid = process.pid; pid > 0;) {
    keep.add(pid);
    try {
      pid = Number(fs.readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ")[1]);
    } catch {
      break;
    }
  }
  return keep;
}

// Only inside the sandbox's own PID namespace (the worker is then one of its first processes): there,
// every other process belongs to a turn; on the host this would reach processes that are not ours.
function killLeftovers() {
  if (!SANDBOXED) return;
  const keep = ancestors();
  for (const name of fs.readdirSync("/proc")) {
    const pid = Number(name);
    if (Number.isInteger(pid) && pid > 0 && !keep.has(pid)) {
      try {
        process.kill(pid, "SIGKILL");
      } catch {}
    }
  }
}

async function turn(request) {
  const savedEnv = { ...process.env };
  const out = fs.openSync(request.stdout, "w");
  const err = fs.openSync(request.stderr, "w");
  const toErr = (chunk, encoding, callback) => {
    fs.writeSync(err, typeof chunk === "string" ? Buffer.from(chunk, encoding) : chunk);
    (typeof encoding === "function" ? encoding : callback)?.();
    return true;
  };
  Object.assign(process.env, request.env);
  process.chdir(request.cwd);
  process.stdout.write = toErr;
  process.stderr.write = toErr;
  let exitCode = 1;
  const runtime = {
    log: (...args) => fs.writeSync(out, args.join(" ") + "\n"),
    error: (...args) => fs.writeSync(err, args.join(" ") + "\n"),
    exit: (code) => {
      exitCode = code;
    },
  };
  try {
    const result = await agentExecCommand(undefined, request.args, runtime);
    exitCode = result?.exitCode ?? exitCode;
  } catch (error) {
    fs.writeSync(err, `openclaw worker: ${error?.stack ?? error}\n`);
  } finally {
    try {
      await closeStateDatabases();
    } catch (error) {
      fs.writeSync(err, `openclaw worker: databases not closed: ${error?.stack ?? error}\n`);
      exitCode = exitCode || 1;
    }
    process.stdout.write = writeOut;
    process.stderr.write = writeErr;
    process.chdir("/"); // the episode folder moves out of the worker once the turn has ended
    for (const key of Object.keys(process.env)) if (!(key in savedEnv)) delete process.env[key];
    Object.assign(process.env, savedEnv);
    killLeftovers();
    try {
      await handOver(request.logs);
    } catch (error) {
      fs.writeSync(err, `openclaw worker: log and /tmp not handed over: ${error}\n`);
      exitCode = exitCode || 1;
    }
    fs.closeSync(out);
    fs.closeSync(err);
  }
  const usage = process.cpuUsage();
  return { id: request.id, exit_code: exitCode, cpu_s: (usage.user + usage.system) / 1e6 };
}

writeOut(`${REPLY}${JSON.stringify({ id: "ready" })}\n`);
for await (const line of readline.createInterface({ input: process.stdin })) {
  if (line.trim()) writeOut(`${REPLY}${JSON.stringify(await turn(JSON.parse(line)))}\n`);
}
process.exit(0);
