// The agents' tabs: those the hub created and those their pages opened. Kept in
// chrome.storage.session, so that a restarted worker still knows them (their documents keep
// getting the helper and the hook, their loads are still told), and never discarded by the
// browser to save memory (Memory Saver, or memory running low): a page an agent is working
// in would be unloaded behind its back, what it typed lost, and come back only as a reload.

import { isAttached } from "./debuggers.js";

const tabs = new Set();
const keep = () => chrome.storage.session.set({ agentTabs: [...tabs] }).catch(() => {});

chrome.storage.session.get("agentTabs").then((got) => {
  for (const id of Array.isArray(got.agentTabs) ? got.agentTabs : []) {
    if (Number.isInteger(id)) tabs.add(id);
  }
}).catch(() => {});

// The tab is an agent's from now on (a tab the person closes meanwhile is simply gone).
export function addAgentTab(tabId) {
  tabs.add(tabId);
  keep();
  chrome.tabs.update(tabId, { autoDiscardable: false }).catch(() => {});
}

// The tab closed: forgotten.
export function dropAgentTab(tabId) {
  if (tabs.delete(tabId)) keep();
}

// Whether the tab is an agent's: one of those, or one a debugger of ours is attached to.
export const isAgentTab = (tabId) => tabs.has(tabId) || isAttached(tabId);
