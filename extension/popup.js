// The Tabsteward popup: the hub connection, this browser's name, the agents using it, which
// agent holds the debugger on which tab, and the "stop all agents" switch. It only reads
// and writes chrome.storage (and reads tab titles); the worker acts.

import { cleanLabel, defaultName } from "./names.js";

const $ = (id) => document.getElementById(id);
let ticker = null;
let hubVersion = "";
let connection = null;

const clock = (ms) => new Date(ms).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });

function showConnection() {
  clearInterval(ticker);
  const c = connection;
  const el = $("connection");
  el.dataset.state = c ? c.state : "starting";
  if (!c) {
    el.textContent = "Starting…";
  } else if (c.state === "connected") {
    const hub = hubVersion ? `Tabsteward hub ${hubVersion}` : "Tabsteward hub";
    el.textContent = `Connected to the ${hub} since ${clock(c.since)}.`;
  } else if (c.state === "connecting") {
    el.textContent = "Connecting to the Tabsteward hub…";
  } else {
    const tick = () => {
      const left = Math.ceil((c.since + c.retryIn * 1000 - Date.now()) / 1000);
      const when = left > 0 ? `retrying in ${left} s` : "retrying now";
      const why = (c.error || "no reason given").replace(/\.$/, "");
      el.textContent = `Not connected: ${why} (${when}).`;
    };
    tick();
    ticker = setInterval(tick, 1000);
  }
}

function showAgents(agents) {
  const list = $("agents");
  list.replaceChildren(...(agents || []).map((a) => {
    const item = document.createElement("li");
    const name = document.createElement("span");
    name.className = "agent";
    name.textContent = a.name;
    const tabs = document.createElement("span");
    tabs.className = "quiet";
    tabs.textContent = `${a.tabs} ${a.tabs === 1 ? "tab" : "tabs"}`;
    item.append(name, tabs);
    return item;
  }));
  $("no-agents").hidden = list.children.length > 0;
}

let agents = [];
let debuggers = [];

// Who holds the debugger on which tab, now: the worker's attached tabs, named by the
// agents the hub reported.
async function showDebuggers() {
  const shown = debuggers;
  const items = await Promise.all(shown.map(async (d) => {
    const owner = agents.find((a) => (a.tabIds || []).includes(d.tabId));
    const tab = await chrome.tabs.get(d.tabId).catch(() => null);
    const item = document.createElement("li");
    const name = document.createElement("span");
    name.className = "agent";
    name.textContent = owner ? owner.name : "an agent";
    const where = document.createElement("span");
    const title = tab && (tab.title || tab.url) ? `“${tab.title || tab.url}”` : `${d.tabId}`;
    where.textContent = ` holds it on tab ${title} since ${clock(d.since)}`;
    item.append(name, where);
    return item;
  }));
  if (shown !== debuggers) return; // a newer state is being drawn
  $("debuggers").replaceChildren(...items);
  $("no-debuggers").hidden = items.length > 0;
}

function showLocal(got) {
  if ("stopped" in got) $("stop").checked = got.stopped === true;
  document.body.classList.toggle("stopped", $("stop").checked);
  for (const field of ["name", "profile"]) {
    if (field in got && document.activeElement !== $(field)) {
      $(field).value = cleanLabel(got[field]) || (field === "name" ? defaultName() : "");
    }
  }
}

function showSession(got) {
  if ("hub" in got) hubVersion = got.hub ? got.hub.version : "";
  if ("connection" in got) connection = got.connection;
  if ("agents" in got) {
    agents = got.agents || [];
    showAgents(agents);
  }
  if ("debuggers" in got) debuggers = got.debuggers || [];
  if ("agents" in got || "debuggers" in got) showDebuggers();
  showConnection();
}

for (const field of ["name", "profile"]) {
  $(field).addEventListener("change", () => {
    const value = cleanLabel($(field).value);
    if (value) chrome.storage.local.set({ [field]: value });
    else chrome.storage.local.remove(field);
  });
}
$("stop").addEventListener("change", () => {
  document.body.classList.toggle("stopped", $("stop").checked);
  chrome.storage.local.set({ stopped: $("stop").checked });
});

chrome.storage.onChanged.addListener((changes, area) => {
  const now = Object.fromEntries(Object.entries(changes).map(([k, v]) => [k, v.newValue]));
  if (area === "local") showLocal(now);
  if (area === "session") showSession(now);
});
$("name").placeholder = defaultName();
chrome.storage.local.get(["name", "profile", "stopped"]).then((got) =>
  showLocal({ name: got.name, profile: got.profile, stopped: got.stopped }));
chrome.storage.session.get(["connection", "agents", "hub", "debuggers"]).then((got) =>
  showSession({ hub: got.hub, connection: got.connection, agents: got.agents,
                debuggers: got.debuggers }));
