// The Tabsteward popup: the hub connection, this browser's name, the agents using it, and
// the "stop all agents" switch. It only reads and writes chrome.storage; the worker acts.

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
  if ("agents" in got) showAgents(got.agents);
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
chrome.storage.session.get(["connection", "agents", "hub"]).then((got) =>
  showSession({ hub: got.hub, connection: got.connection, agents: got.agents }));
