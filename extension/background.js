// Tabsteward's service worker: one native port to the hub, a hello, and an allow-listed
// relay of chrome.debugger / chrome.tabs / chrome.tabGroups calls. No page logic lives here.

import { addAgentTab, dropAgentTab, isAgentTab } from "./agent_tabs.js";
import {
  changeSettings, forget, navigation, release, releaseAll, remember, showDebuggers, touch,
  whenReleased,
} from "./debuggers.js";
import { cleanLabel, defaultName } from "./names.js";
import { guard, unguard } from "./guard.js";
import { go } from "./navigate.js";
import {
  committed, frames, inject, prepare, run, tabClosed, useHookKey,
} from "./reader.js";

const HOST = "com.tabsteward.host";
const PROTOCOL = 1;
// what this extension can do beyond protocol 1, told in its hello (PROTOCOL.md)
const ABILITIES = ["sequence.sessions", "sequence.reads", "sequence.holds", "hook.key"];
// numeric error codes shared with Python (bridge/errors.py)
const ERR = { usage: 2, browser: 10, tab: 30, policy: 50 };
const STOPPED = "the person stopped all agents in this browser (Tabsteward popup); nothing was done";
const WHILE_STOPPED = new Set(["tabs.query", "tabs.get", "tabGroups.query", "settings.update",
                               "hook.key"]);
const MAX_IDLE = 86400; // seconds; setTimeout cannot wait much beyond 24 days anyway
const MAX_CHUNKS = 1024;

class CallError extends Error {
  constructor(code, message) {
    super(message);
    this.code = code;
  }
}

let stopped = false;
let port = null;
let openedAt = 0;
let heard = false; // the hub has spoken on this port
let backoff = 500;
const chunks = new Map(); // chunk id -> {count, parts}
const inFlight = new Map(); // agent tab -> ids of its data requests not yet answered

// ---- the calls the hub may make ----

function updateSettings(changes) {
  if (!changes || typeof changes !== "object" || Array.isArray(changes)) {
    throw new CallError(ERR.usage,
      "settings.update wants one object like {idleDetachSeconds: 10}; nothing was changed");
  }
  for (const [name, value] of Object.entries(changes)) {
    if (name !== "idleDetachSeconds") {
      throw new CallError(ERR.usage,
        `settings.update knows no setting ${JSON.stringify(name)}; nothing was changed`);
    }
    if (typeof value !== "number" || !(value >= 0 && value <= MAX_IDLE)) {
      throw new CallError(ERR.usage, `idleDetachSeconds must be a number of seconds from 0 ` +
        `(never detach) to ${MAX_IDLE}, not ${JSON.stringify(value)}; nothing was changed`);
    }
  }
  return changeSettings(changes);
}

// Commands for one tab's debugger in steps, in one message (one trip from the hub instead of
// one a step): each step's commands are sent together, in order; the next step once they all
// answered; after a step with a failure nothing more is sent, nor after step `hold` (when
// given: one read) when that read answered false. A command is [method, params]
// for the tab's page, or [method, params, sessionId] for one of its frames' sessions; or
// [READ, {documentId, name, args}], a read of the page helper in a document of the tab, as
// reader.run does it (no debugger context needed). The answers, step by step: {result} or
// {error: {code, message}} each, null for one not sent. Nothing here that
// debugger.sendCommand and reader.run could not do one call at a time.
const READ = "Tabsteward.read";
const MAX_STEPS = 8;
const MAX_STEP = 16;
async function sequence(target, steps, hold) {
  const ok = target && Number.isInteger(target.tabId) && Array.isArray(steps) &&
    (hold === undefined || (Number.isInteger(hold) && hold >= 0 && hold < steps.length)) &&
    steps.length <= MAX_STEPS && steps.every((s) => Array.isArray(s) && s.length <= MAX_STEP &&
      s.every((c) => Array.isArray(c) && c.length <= 3 && typeof c[0] === "string" &&
        (c[2] === undefined || (typeof c[2] === "string" && c[2] !== ""))));
  if (!ok) {
    throw new CallError(ERR.usage, `debugger.sequence wants {tabId}, up to ${MAX_STEPS} ` +
      `steps of up to ${MAX_STEP} [method, params] or [method, params, sessionId] ` +
      "commands, and the index of a step to hold on or none; nothing was sent");
  }
  const tab = { tabId: target.tabId };
  touch(tab, 1);
  try {
    const out = [];
    let failed = false;
    for (const step of steps) {
      if (failed) {
        out.push(step.map(() => null));
        continue;
      }
      const got = await Promise.allSettled(step.map(([method, params, sessionId]) =>
        method === READ ? readIn(tab.tabId, params) :
          chrome.debugger.sendCommand(sessionId ? { ...tab, sessionId } : tab, method,
                                      params || {})));
      out.push(got.map((g) => g.status === "fulfilled" ?
        { result: g.value === undefined ? null : g.value } : { error: errorOf(g.reason) }));
      failed = out.length - 1 === hold ? heldBack(got[0]) :
        got.some((g) => g.status === "rejected");
    }
    return out;
  } finally {
    touch(tab, -1);
  }
}

// Whether a sequence's hold step answered false: a read's value (reader.run's answer, or the
// debugger's Runtime.evaluate result). A read that failed holds nothing back.
function heldBack(settled) {
  if (!settled || settled.status !== "fulfilled" || !settled.value) return false;
  const v = settled.value;
  return ("value" in v ? v.value : v.result && v.result.value) === false;
}

// A sequence's read: its answer is reader.run's (null when the document is gone).
async function readIn(tabId, params) {
  const p = params || {};
  if (typeof p.documentId !== "string" || typeof p.name !== "string" ||
      !Array.isArray(p.args)) {
    throw new CallError(ERR.usage, `${READ} wants {documentId, name, args}; nothing was read`);
  }
  return run(tabId, p.documentId, p.name, p.args);
}

// A failure as the hub gets it: a numeric code (bridge/errors.py) and a message.
function errorOf(e) {
  const text = String((e && e.message) || e);
  return { code: e instanceof CallError ? e.code : /tab/i.test(text) ? ERR.tab : ERR.browser,
           message: text };
}

// Every call the hub may make, and how its arguments are shaped before Chrome sees them.
// Nothing here activates a tab or focuses a window.
const CALLS = {
  "debugger.attach": async (target) => {
    await chrome.debugger.attach(target, "1.3");
    if (stopped) { // the person stopped agents while Chrome was attaching
      await chrome.debugger.detach(target).catch(() => {});
      throw new CallError(ERR.policy, STOPPED);
    }
    remember(target);
  },
  "debugger.detach": async (target) => {
    forget(target);
    await chrome.debugger.detach(target);
  },
  "debugger.sendCommand": async (target, method, params, read) => {
    touch(target, 1, read === true);
    try {
      return await chrome.debugger.sendCommand(target, String(method), params || {});
    } finally {
      touch(target, -1, read === true); // a long command counts as use until it answers
    }
  },
  "debugger.sequence": sequence,
  "debugger.getTargets": () => chrome.debugger.getTargets(),
  "tabs.create": async (props) => {
    const tab = await chrome.tabs.create({
      url: props && props.url, windowId: props && props.windowId, active: false });
    addAgentTab(tab.id);
    return tab;
  },
  "tabs.query": (query) => chrome.tabs.query(query || {}),
  "tabs.get": (tabId) => chrome.tabs.get(Number(tabId)),
  "tabs.remove": (tabId) => chrome.tabs.remove(Number(tabId)),
  "tabs.update": (tabId, props) => {
    const { active, highlighted, selected, ...safe } = props || {};
    return chrome.tabs.update(Number(tabId), safe);
  },
  "tabs.group": (options) => chrome.tabs.group(options),
  "tabs.ungroup": (tabIds) => chrome.tabs.ungroup(tabIds),
  "tabGroups.update": (groupId, props) => chrome.tabGroups.update(Number(groupId), props || {}),
  "tabGroups.query": (query) => chrome.tabGroups.query(query || {}),
  "settings.update": updateSettings,
  "hook.key": (key) => {
    if (!useHookKey(key)) {
      throw new CallError(ERR.usage, "hook.key wants the hub's secret for the page hook, 8 " +
        "to 64 letters and digits; nothing was changed");
    }
  },
  "scripting.inject": async (tabId) => { // for the tab's debugger: that counts as its use
    touch({ tabId: Number(tabId) }, 1);
    try {
      return await inject(tabId);
    } finally {
      touch({ tabId: Number(tabId) }, -1);
    }
  },
  // the ids of an agent tab's data requests begun and not yet answered (see net.data):
  // asked once its page loaded, as those events may come after the load's
  "net.pending": (tabId) => [...(inFlight.get(Number(tabId)) || [])],
  "reader.frames": frames,
  "reader.run": run,
  "guard.set": guard,
  "nav.go": go,
};

// ---- messages from the hub ----

function send(message) {
  try {
    if (port) port.postMessage(message);
  } catch {
    // the port is going away; its onDisconnect follows
  }
}

// Messages over 1 MiB arrive from the host in chunks (bridge/native/chunks.py); a malformed
// chunk drops its whole message.
function unchunk(message) {
  if (!Object.hasOwn(message, "chunk")) return message;
  const c = message.chunk;
  const ok = c && typeof c === "object" && Number.isInteger(c.count) && c.count > 0 &&
    c.count <= MAX_CHUNKS && Number.isInteger(c.index) && c.index >= 0 &&
    c.index < c.count && typeof c.data === "string";
  const key = JSON.stringify(c && c.id);
  let got = chunks.get(key);
  if (!ok || (got && got.count !== c.count)) {
    chunks.delete(key);
    return null;
  }
  if (!got) chunks.set(key, (got = { count: c.count, parts: [] }));
  got.parts[c.index] = c.data;
  if (got.parts.filter((p) => p !== undefined).length < got.count) return null;
  chunks.delete(key);
  try {
    return JSON.parse(got.parts.join(""));
  } catch {
    return null;
  }
}

// What the popup shows of the hub's notifications (chrome.storage.session).
const NOTIFY = {
  agents: (m) => ({ agents: (Array.isArray(m.agents) ? m.agents : [])
    .filter((a) => a && typeof a.name === "string")
    .map((a) => ({ name: a.name, tabs: Number(a.tabs) || 0,
                   tabIds: (Array.isArray(a.tabIds) ? a.tabIds : []).filter(Number.isInteger) })) }),
  hub: (m) => ({ hub: { version: String(m.version ?? "") } }),
};

async function handle(raw) {
  const message = raw && typeof raw === "object" ? unchunk(raw) : null;
  if (!message || typeof message !== "object") return;
  if (message.id === undefined) {
    if (Object.hasOwn(NOTIFY, message.notify)) {
      chrome.storage.session.set(NOTIFY[message.notify](message)).catch(() => {});
    }
    return;
  }
  const reply = (code, text) => send({ id: message.id, error: { code, message: text } });
  if (!Object.hasOwn(CALLS, message.call)) {
    reply(ERR.usage, `${message.call} is not on the extension's allow-list; nothing was done`);
    return;
  }
  if (!Array.isArray(message.args)) {
    reply(ERR.usage, `${message.call} wants its arguments as a list; nothing was done`);
    return;
  }
  if (stopped && !WHILE_STOPPED.has(message.call)) {
    reply(ERR.policy, STOPPED);
    return;
  }
  try {
    const result = await CALLS[message.call](...message.args);
    send({ id: message.id, result: result === undefined ? null : result });
  } catch (e) {
    const { code, message: text } = errorOf(e);
    reply(code, text);
  }
}

// ---- the port, its hello, and the state the popup shows ----

async function installId() {
  const got = await chrome.storage.local.get("installId");
  if (got.installId) return got.installId;
  const id = crypto.randomUUID();
  await chrome.storage.local.set({ installId: id });
  return id;
}

async function hello() {
  const got = await chrome.storage.local.get(["name", "profile"]);
  return { type: "hello", protocol: PROTOCOL, abilities: ABILITIES, install: await installId(),
           browser: navigator.userAgent, extension: chrome.runtime.id,
           name: cleanLabel(got.name) || defaultName(), profile: cleanLabel(got.profile),
           stopped };
}

function showConnection(state, since, error = "", retryIn = 0) {
  chrome.storage.session.set({ connection: { state, since, error, retryIn } }).catch(() => {});
}

// The hub spoke, so the host reached it: show the link as up and reset the backoff (a host
// that exits at once, with no hub, must not make the worker retry every 500 ms).
function heardFromHub(opened) {
  if (port !== opened || heard) return;
  heard = true;
  backoff = 500;
  showConnection("connected", openedAt);
}

async function connect() {
  let greeting, opened;
  try {
    greeting = await hello();
    opened = chrome.runtime.connectNative(HOST);
  } catch (e) {
    lost(String((e && e.message) || e));
    return;
  }
  port = opened;
  openedAt = Date.now();
  heard = false;
  showConnection("connecting", openedAt);
  opened.onMessage.addListener((m) => {
    heardFromHub(opened);
    handle(m).catch(() => {});
  });
  opened.onDisconnect.addListener(() => {
    const error = chrome.runtime.lastError;
    if (port === opened) lost(error ? error.message : "the native host closed the connection");
  });
  send(greeting);
}

// The port dropped: let go of every debugger (no "is debugging" bar without a hub), retry.
function lost(error) {
  port = null;
  chunks.clear();
  releaseAll(null);
  chrome.storage.session.remove(["agents", "hub"]).catch(() => {});
  showConnection("disconnected", Date.now(), error, backoff / 1000);
  setTimeout(connect, backoff);
  backoff = Math.min(backoff * 2, 30000);
}

// ---- "stop all agents", set by the person in the popup ----

async function setStopped(on) {
  if (on === stopped) return;
  stopped = on;
  if (on) await releaseAll("stopped_by_user");
  send({ event: "agents.stopped", args: [on] });
}

chrome.storage.onChanged.addListener((changes, area) => {
  if (area !== "local") return;
  if (changes.stopped) setStopped(changes.stopped.newValue === true);
  if ((changes.name || changes.profile) && port) hello().then(send); // a repeat hello updates
});

chrome.debugger.onDetach.addListener((source, reason) => {
  forget(source);
  send({ event: "debugger.detached", args: [source, reason] });
});
chrome.debugger.onEvent.addListener((source, method, params) =>
  send({ event: "debugger.event", args: [source, method, params] }));
chrome.tabs.onCreated.addListener((tab) => send({ event: "tabs.created", args: [tab] }));

// ---- the person's focus: a tab an agent's page opens never stays in front ----
// Chrome opens a page's new tab in the foreground and names the wrong opener in
// tabs.onCreated; webNavigation names the real one. When an agent tab opened it, the tab
// the person had in front comes back at once, and the hub is told whose tab it is.
const fronts = new Map(); // windowId -> the last tabs activated there, newest last

chrome.tabs.query({ active: true }).then((tabs) => {
  for (const t of tabs) if (!fronts.has(t.windowId)) fronts.set(t.windowId, [t.id]);
});
chrome.tabs.onActivated.addListener(({ tabId, windowId }) => {
  const seen = (fronts.get(windowId) || []).filter((t) => t !== tabId);
  seen.push(tabId);
  fronts.set(windowId, seen.slice(-8));
});
chrome.webNavigation.onCreatedNavigationTarget.addListener(async (details) => {
  if (!isAgentTab(details.sourceTabId)) return;
  addAgentTab(details.tabId);
  send({ event: "tabs.opened", args: [{ tabId: details.tabId, sourceTabId: details.sourceTabId }] });
  const tab = await chrome.tabs.get(details.tabId).catch(() => null);
  if (!tab || !tab.active) return;
  const back = (fronts.get(tab.windowId) || []).filter((t) => t !== tab.id && !isAgentTab(t)).pop();
  if (back !== undefined) await chrome.tabs.update(back, { active: true }).catch(() => {});
});
// A page's "leave this page?" question (beforeunload) makes Chrome bring its tab to the
// front; an agent tab's question goes back behind the person's tab (the agent answers it).
// Only just after it opened: the person may look at the agent's tab later.
const ASKING_MS = 2000;
const asking = new Map(); // agent tab -> when a JavaScript dialog opened in it
async function keepBehind(tabId) {
  if (!(Date.now() - (asking.get(tabId) ?? -Infinity) < ASKING_MS)) return;
  const tab = await chrome.tabs.get(tabId).catch(() => null);
  if (!tab || !tab.active) return;
  const back = (fronts.get(tab.windowId) || []).filter((t) => t !== tabId && !isAgentTab(t)).pop();
  if (back !== undefined) await chrome.tabs.update(back, { active: true }).catch(() => {});
}
chrome.debugger.onEvent.addListener((source, method) => {
  if (!isAgentTab(source.tabId) || source.sessionId) return;
  if (method === "Page.javascriptDialogOpening") {
    asking.set(source.tabId, Date.now());
    keepBehind(source.tabId);
  } else if (method === "Page.javascriptDialogClosed") asking.delete(source.tabId);
});
chrome.tabs.onActivated.addListener(({ tabId }) => keepBehind(tabId));
chrome.tabs.onRemoved.addListener((tabId, info) => {
  dropAgentTab(tabId);
  inFlight.delete(tabId);
  tabClosed(tabId);
  asking.delete(tabId);
  unguard(tabId);
  send({ event: "tabs.removed", args: [tabId, info] });
});
chrome.tabs.onUpdated.addListener((tabId, change) =>
  send({ event: "tabs.updated", args: [tabId, change] }));
// An agent tab's page loading, told even while no debugger is attached (the hub then
// learns of its navigations and load states from these); a page loading keeps its tab's
// debugger, if one of ours is attached (debuggers.js).
for (const [kind, source] of Object.entries({
  started: chrome.webNavigation.onBeforeNavigate, committed: chrome.webNavigation.onCommitted,
  interactive: chrome.webNavigation.onDOMContentLoaded, loaded: chrome.webNavigation.onCompleted,
  failed: chrome.webNavigation.onErrorOccurred })) {
  source.addListener((d) => {
    if (d.frameId === 0) navigation(d.tabId, kind, d);
    if (!isAgentTab(d.tabId)) return;
    if (d.frameId !== 0) { // a frame's own navigation adds a history entry
      if (kind === "committed" && d.transitionType === "manual_subframe") {
        send({ event: "nav.event", args: [d.tabId, "frame", { url: d.url }] });
      }
      return;
    }
    send({ event: "nav.event", args: [d.tabId, kind, {
      url: d.url, documentId: d.documentId, transition: d.transitionType,
      qualifiers: d.transitionQualifiers }] });
  });
}
// Every document of an agent tab gets the page helper as it commits (reader.js).
chrome.webNavigation.onCommitted.addListener((d) => {
  if (!isAgentTab(d.tabId)) return;
  committed(d);
  prepare(d);
});
// The main frame's URL changed in place (a fragment, pushState, replaceState).
for (const source of [chrome.webNavigation.onReferenceFragmentUpdated,
                      chrome.webNavigation.onHistoryStateUpdated]) {
  source.addListener((d) => {
    if (d.frameId !== 0 || !isAgentTab(d.tabId)) return;
    send({ event: "nav.event", args: [d.tabId, "inPlace", {
      url: d.url, qualifiers: d.transitionQualifiers }] });
  });
}
// A page or frame load of an agent tab the browser refused (a site rule: guard.js).
chrome.webNavigation.onErrorOccurred.addListener((d) => {
  if (d.error !== "net::ERR_BLOCKED_BY_CLIENT" || !isAgentTab(d.tabId)) return;
  send({ event: "nav.blocked", args: [d.tabId, { url: d.url, main: d.frameId === 0 }] });
});
// An agent tab's data requests (fetch and XMLHttpRequest: webRequest's "xmlhttprequest"),
// begun and answered, so that the hub can wait for the data a page is still loading before
// it reads the page, with no debugger attached. Nothing of the person's tabs is told; only
// the request's id, no address, no content.
const DATA = { urls: ["<all_urls>"], types: ["xmlhttprequest"] };
const told = (kind) => (d) => {
  if (!(d.tabId >= 0 && isAgentTab(d.tabId))) return;
  const id = String(d.requestId);
  const open = inFlight.get(d.tabId) || new Set();
  if (kind === "begun") open.add(id);
  else open.delete(id);
  if (open.size) inFlight.set(d.tabId, open);
  else inFlight.delete(d.tabId);
  send({ event: "net.data", args: [d.tabId, kind, id] });
};
chrome.webRequest.onBeforeRequest.addListener(told("begun"), DATA);
chrome.webRequest.onCompleted.addListener(told("answered"), DATA);
chrome.webRequest.onErrorOccurred.addListener(told("answered"), DATA);
chrome.downloads.onCreated.addListener((item) =>
  send({ event: "downloads.created", args: [item] }));
chrome.downloads.onChanged.addListener((delta) =>
  send({ event: "downloads.changed", args: [delta] }));

whenReleased((target, reason) => send({ event: "debugger.detached", args: [target, reason] }));
showDebuggers(); // a restarted worker starts with none of its own

// A restarted worker reads the stop flag before it takes any call.
chrome.storage.local.get("stopped").then((got) => {
  stopped = got.stopped === true;
  connect();
});
