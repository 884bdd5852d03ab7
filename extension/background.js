// Tabsteward's service worker: one native port to the hub, a hello, and an allow-listed
// relay of chrome.debugger / chrome.tabs / chrome.tabGroups calls. No page logic lives here.

const HOST = "com.tabsteward.host";
const PROTOCOL = 1;
// numeric error codes shared with Python (bridge/errors.py)
const ERR = { usage: 2, browser: 10, tab: 30 };

// Every call the hub may make, and how its arguments are shaped before Chrome sees them.
// Nothing here activates a tab or focuses a window.
const CALLS = {
  "debugger.attach": (target) => chrome.debugger.attach(target, "1.3"),
  "debugger.detach": (target) => chrome.debugger.detach(target),
  "debugger.sendCommand": (target, method, params) =>
    chrome.debugger.sendCommand(target, String(method), params || {}),
  "debugger.getTargets": () => chrome.debugger.getTargets(),
  "tabs.create": (props) => chrome.tabs.create({
    url: props && props.url, windowId: props && props.windowId, active: false }),
  "tabs.query": (query) => chrome.tabs.query(query || {}),
  "tabs.get": (tabId) => chrome.tabs.get(Number(tabId)),
  "tabs.remove": (tabId) => chrome.tabs.remove(Number(tabId)),
  "tabs.update": (tabId, props) => {
    const { active, highlighted, selected, ...safe } = props || {};
    return chrome.tabs.update(Number(tabId), safe);
  },
  "tabs.group": (options) => chrome.tabs.group(options),
  "tabGroups.update": (groupId, props) => chrome.tabGroups.update(Number(groupId), props || {}),
  "tabGroups.query": (query) => chrome.tabGroups.query(query || {}),
};

let port = null;
let backoff = 500;
const chunks = new Map();

async function installId() {
  const got = await chrome.storage.local.get("installId");
  if (got.installId) return got.installId;
  const id = crypto.randomUUID();
  await chrome.storage.local.set({ installId: id });
  return id;
}

function send(message) {
  if (port) port.postMessage(message);
}

// Messages over 1 MiB arrive from the host in chunks (bridge/nm_chunks.py).
function unchunk(message) {
  const c = message && message.chunk;
  if (!c) return message;
  let parts = chunks.get(c.id);
  if (!parts) chunks.set(c.id, (parts = []));
  parts[c.index] = c.data;
  if (parts.filter((p) => p !== undefined).length < c.count) return null;
  chunks.delete(c.id);
  return JSON.parse(parts.join(""));
}

async function handle(raw) {
  const message = unchunk(raw);
  if (!message || message.id === undefined) return;
  const call = CALLS[message.call];
  if (!call) {
    send({ id: message.id, error: { code: ERR.usage,
      message: `${message.call} is not on the extension's allow-list; nothing was done` } });
    return;
  }
  try {
    const result = await call(...(Array.isArray(message.args) ? message.args : []));
    send({ id: message.id, result: result === undefined ? null : result });
  } catch (e) {
    const text = String((e && e.message) || e);
    const code = /tab/i.test(text) ? ERR.tab : ERR.browser;
    send({ id: message.id, error: { code, message: text } });
  }
}

async function connect() {
  try {
    port = chrome.runtime.connectNative(HOST);
  } catch (e) {
    port = null;
    retry();
    return;
  }
  port.onMessage.addListener((m) => { handle(m); });
  port.onDisconnect.addListener(() => {
    port = null;
    chunks.clear();
    retry();
  });
  send({ type: "hello", protocol: PROTOCOL, install: await installId(),
         browser: navigator.userAgent, extension: chrome.runtime.id });
  backoff = 500;
}

function retry() {
  setTimeout(connect, backoff);
  backoff = Math.min(backoff * 2, 30000);
}

chrome.debugger.onDetach.addListener((source, reason) =>
  send({ event: "debugger.detached", args: [source, reason] }));
chrome.debugger.onEvent.addListener((source, method, params) =>
  send({ event: "debugger.event", args: [source, method, params] }));
chrome.tabs.onRemoved.addListener((tabId, info) =>
  send({ event: "tabs.removed", args: [tabId, info] }));
chrome.tabs.onUpdated.addListener((tabId, change) =>
  send({ event: "tabs.updated", args: [tabId, change] }));

connect();
