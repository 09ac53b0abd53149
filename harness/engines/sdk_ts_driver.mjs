// The sdk-ts engine's driver: one Node.js process that runs a case's prompts through the TypeScript Agent SDK's
// query() and prints every message the SDK yields as one JSON line, the way `claude -p --output-format
// stream-json --verbose` prints its events. It takes the claude command line the CLI adapter would run
// (harness/engines/claude.py, cli_args) and turns each option into the SDK option a TypeScript user would set,
// so one case runs on the CLI and on the SDK with nothing else changed.
//
// Usage: node sdk_ts_driver.mjs SDK_MODULE_PATH [claude arguments...]
// With --input-format stream-json the prompts come on stdin, one user message per line, each after the
// previous result (the harness sends them); otherwise the prompt follows -p.
import { createInterface } from "node:readline";
import { pathToFileURL } from "node:url";

const [sdkPath, ...args] = process.argv.slice(2);
const { query } = await import(pathToFileURL(sdkPath).href);

function parse(argv) {
  const options = {
    // The CLI's own system prompt: the SDK's default would be an empty one, which no CLI run has.
    systemPrompt: { type: "preset", preset: "claude_code" },
    env: { ...process.env },
    extraArgs: {},
    stderr: (text) => process.stderr.write(text),
  };
  let prompt = null;
  let streamed = false;
  const list = (key, value) => (options[key] = [...(options[key] ?? []), value]);
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const next = () => argv[++i];
    switch (arg) {
      case "-p":
        if (i + 1 < argv.length && !argv[i + 1].startsWith("--")) prompt = next();
        break;
      case "--input-format":
        streamed = next() === "stream-json";
        break;
      case "--output-format":
        next(); // this driver prints stream-json itself
        break;
      case "--verbose":
        break;
      case "--dangerously-skip-permissions":
        options.permissionMode = "bypassPermissions";
        options.allowDangerouslySkipPermissions = true;
        break;
      case "--permission-mode":
        options.permissionMode = next();
        break;
      case "--resume":
        options.resume = next();
        break;
      case "--allowedTools":
        list("allowedTools", next());
        break;
      case "--disallowedTools":
        list("disallowedTools", next());
        break;
      case "--agents":
        options.agents = JSON.parse(next());
        break;
      case "--setting-sources":
        options.settingSources = next().split(",").filter(Boolean);
        break;
      case "--plugin-dir":
        list("plugins", { type: "local", path: next() });
        break;
      case "--add-dir":
        list("additionalDirectories", next());
        break;
      case "--include-hook-events":
        options.includeHookEvents = true;
        break;
      case "--agent":
      case "--debug-file":
      case "--settings":
        // No SDK option of their own in every release: passed to the binary as they are.
        options.extraArgs[arg.slice(2)] = next();
        break;
      case "--init":
      case "--maintenance":
        // Run the Setup hooks first: no SDK option, so the bare flag goes to the binary (an extraArgs key whose
        // value is null is passed as `--key` with no value; sdk.d.ts, extraArgs).
        options.extraArgs[arg.slice(2)] = null;
        break;
      default:
        process.stderr.write(`sdk-ts driver: no SDK option for the claude argument ${arg}\n`);
        process.exit(2);
    }
  }
  return { options, prompt, streamed };
}

// Prompts from stdin as the SDK's streaming input: each line the harness writes is one user message.
async function* stdinMessages() {
  const lines = createInterface({ input: process.stdin, crlfDelay: Infinity });
  for await (const line of lines) {
    if (!line.trim()) continue;
    const event = JSON.parse(line);
    yield { type: "user", message: event.message, parent_tool_use_id: null, session_id: "" };
  }
}

// A prompt too long for an argument comes on stdin as plain text, as `claude -p` reads it (claude.py).
async function stdinText() {
  const chunks = [];
  for await (const chunk of process.stdin) chunks.push(chunk);
  return Buffer.concat(chunks).toString("utf8");
}

const { options, prompt, streamed } = parse(args);
try {
  const input = streamed ? stdinMessages() : (prompt ?? (await stdinText()));
  for await (const message of query({ prompt: input, options })) {
    process.stdout.write(JSON.stringify(message) + "\n");
  }
} catch (error) {
  process.stderr.write(`sdk-ts driver: ${error?.stack ?? error}\n`);
  process.exit(1);
}
