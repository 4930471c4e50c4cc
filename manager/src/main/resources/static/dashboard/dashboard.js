// The Muster dashboard: plain JavaScript over the manager's read-only /dashboard/api endpoints, no build
// step and no library, so that every byte of it ships in the manager's jar. Each page polls its endpoint
// every POLL_MS and redraws; the jobs filters live outside the redrawn part so typing survives a refresh.
// Every data call carries the user's Kubernetes bearer token (the manager reviews it with the API server and
// shows the namespaces its user may list Jobs in); the token is kept in sessionStorage, for this tab only.
"use strict";

const POLL_MS = 2000;
const API = "api/";
const SVG_NS = "http://www.w3.org/2000/svg";
const PHASE_COLOURS = {
  Pending: "#e0a030", Running: "#3b82f6", Restarting: "#8b5cf6", Completing: "#60a5fa", Completed: "#22a04b",
  Aborting: "#f59e0b", Aborted: "#9ca3af", Terminating: "#f97316", Terminated: "#6b7280", Failed: "#dc2626",
};
const WAITING_COLOUR = "#d8dce2";

let timer = null;

const TOKEN_KEY = "muster.token";

// A token handed over in the URL fragment (./muster local prints such a URL; a fragment never reaches a
// server): kept for this tab, then dropped from the address bar and the history.
(function takeTokenFromUrl() {
  const match = location.hash.match(/^#token=([^&]*)$/);
  if (match) {
    sessionStorage.setItem(TOKEN_KEY, decodeURIComponent(match[1]));
    history.replaceState(null, "", location.pathname + location.search);
  }
})();

class AuthError extends Error {
  constructor(status, message) {
    super(message);
    this.status = status;
  }
}

// Builds an element; attributes starting with "on" become listeners, children may be strings or nodes.
function h(tag, attrs, ...children) {
  const el = tag.startsWith("svg:") ? document.createElementNS(SVG_NS, tag.slice(4)) : document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined) continue;
    if (key.startsWith("on")) el.addEventListener(key.slice(2), value);
    else el.setAttribute(key, value);
  }
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined) continue;
    el.append(child instanceof Node ? child : String(child));
  }
  return el;
}

async function getJson(path) {
  const token = sessionStorage.getItem(TOKEN_KEY);
  const response = await fetch(API + path,
    { cache: "no-store", headers: token ? { Authorization: "Bearer " + token } : {} });
  if (response.status === 401 || response.status === 403) {
    const body = await response.json().catch(() => ({}));
    throw new AuthError(response.status, body.message || "answered " + response.status);
  }
  if (response.status === 404) return null;
  if (!response.ok) throw new Error(path + " answered " + response.status);
  return response.json();
}

function ms(time) { return time ? Date.parse(time) : null; }

function age(time) {
  const seconds = Math.max(0, Math.round((Date.now() - ms(time)) / 1000));
  if (seconds < 120) return seconds + "s";
  if (seconds < 7200) return Math.floor(seconds / 60) + "m";
  if (seconds < 172800) return Math.floor(seconds / 3600) + "h";
  return Math.floor(seconds / 86400) + "d";
}

function clock(t) { return new Date(t).toLocaleTimeString([], { hour12: false }); }

// Amounts as people read them: cores, GiB, whole GPUs.
function amount(resource, value) {
  if (resource === "memory") return (value / 1073741824).toFixed(value % 1073741824 === 0 ? 0 : 1) + " Gi";
  return Number.isInteger(value) ? String(value) : value.toFixed(2);
}

function label(resource) { return resource === "nvidia.com/gpu" ? "GPU" : resource; }

function usage(use) {
  return amount(use.resource, use.allocated) + " / " + amount(use.resource, use.allocatable);
}

function fraction(use) { return use.allocatable > 0 ? Math.min(1, use.allocated / use.allocatable) : 0; }

function phaseCell(phase) { return h("span", { class: "phase phase-" + phase }, phase || "(no status)"); }

function jobLink(namespace, name) {
  return h("a", { href: "#/job/" + encodeURIComponent(namespace) + "/" + encodeURIComponent(name) }, name);
}

function ordinal(n) {
  const suffix = n % 100 >= 11 && n % 100 <= 13 ? "th" : ["th", "st", "nd", "rd"][n % 10] || "th";
  return n + suffix;
}

// "worker 2/3" (running/replicas), then the task's pods in other phases: "main 0/1 (1 Succeeded)".
function tasksText(tasks) {
  return tasks.map(t => {
    const others = Object.entries(t.phases).filter(([phase, n]) => phase !== "Running" && n > 0)
      .map(([phase, n]) => n + " " + phase);
    return t.name + " " + (t.phases.Running || 0) + "/" + t.replicas + (others.length ? " (" + others.join(", ") + ")" : "");
  }).join("; ");
}

// ---- queues (the tenants) ----

const QUEUE_AMOUNTS = [
  ["allocated", "allocated", "#3b82f6"], ["fairShare", "fair share", "#8b5cf6"],
  ["guarantee", "guarantee", "#22a04b"], ["limit", "limit", "#dc2626"],
];

// One resource of a queue: a bar per amount on the resource's scale, unset amounts drawn as no bar.
function queueBars(r, scale) {
  const width = 220, bar = 6, gap = 2;
  const svg = h("svg:svg", { class: "queue-bars", width, height: QUEUE_AMOUNTS.length * (bar + gap) });
  QUEUE_AMOUNTS.forEach(([key, name, colour], i) => {
    const y = i * (bar + gap);
    svg.append(h("svg:rect", { x: 0, y, width, height: bar, fill: "#eef0f3" }));
    if (r[key] !== null) {
      svg.append(h("svg:rect", { x: 0, y, width: Math.max(1, width * Math.min(1, r[key] / (scale || 1))), height: bar,
        fill: colour, "data-kind": key }, h("svg:title", {}, name + " " + amount(r.resource, r[key]))));
    }
  });
  return svg;
}

// "8 · 8 · 4 · 12 (20)": allocated, fair share, guarantee, limit in their bars' colours, then the demand.
function queueAmounts(r) {
  const shown = value => value === null ? "-" : amount(r.resource, value);
  return h("span", { class: "amounts" },
    QUEUE_AMOUNTS.map(([key, name, colour], i) => [i ? " \u00b7 " : "",
      h("b", { class: key, style: "color:" + colour, title: name }, shown(r[key]))]),
    h("span", { class: "muted", title: "demand" }, " (", h("span", { class: "demand" }, shown(r.demand)), ")"));
}

function pendingGangs(gangs) {
  if (gangs.length === 0) return h("span", { class: "muted" }, "none");
  return h("ol", { class: "pending-gangs" }, gangs.map(g => h("li", { "data-gang": g.namespace + "/" + g.name },
    g.job ? jobLink(g.namespace, g.name) : g.name, h("span", { class: "muted" }, " " + g.namespace + " "),
    g.position ? h("span", { class: "position", title: g.message || "" }, ordinal(g.position) + " in the scheduler's queue, "
      + g.state) : h("span", { class: "position" }, g.phase))));
}

function queuesPage(view) {
  return [
    h("h1", {}, "Queues"),
    h("p", { class: "muted" }, "Each queue's share of the cluster per resource, as its spec sets it and the scheduler "
      + "last wrote it; a full bar is the cluster's allocatable, or a queue's larger amount. Children are indented under their parent."),
    legend(QUEUE_AMOUNTS.map(([, name, colour]) => [name, colour])),
    view.queues.length === 0 ? h("p", { class: "muted", id: "no-queues" }, "No Queue exists.")
      : h("table", { id: "queues-table" },
        h("tr", {}, ["queue", "weight", "state", "pending / running gangs",
          "per resource: allocated \u00b7 fair share \u00b7 guarantee \u00b7 limit (demand)", "gangs not started"]
          .map(t => h("th", {}, t))),
        view.queues.map(q => h("tr", { "data-queue": q.name },
          h("td", { class: "name", style: "padding-left:" + (8 + 20 * q.depth) + "px" }, q.depth > 0 ? "\u2514 " : "", h("b", {}, q.name),
            q.invalid ? h("div", { class: "invalid" }, q.invalid.reason + ": " + q.invalid.message) : null),
          h("td", { class: "weight" }, q.weight),
          h("td", { class: "state state-" + q.state }, q.state),
          h("td", { class: "gangs" }, q.pending === null ? "-" : q.pending, " / ", q.running === null ? "-" : q.running),
          h("td", { class: "resources" }, q.resources.length === 0 ? h("span", { class: "muted" }, "nothing set or allocated")
            : q.resources.map(r => h("div", { class: "queue-resource", "data-resource": r.resource },
              h("span", { class: "resource" }, label(r.resource)), queueBars(r, view.scale[r.resource]), queueAmounts(r)))),
          h("td", {}, pendingGangs(q.pendingGangs))))),
  ];
}

// ---- the scheduler's queue (the waiting gangs of every queue, in the order of its next cycle) ----

function schedulerQueuePage(view) {
  const gangs = view.queue.gangs;
  return [
    h("h1", {}, "Scheduler queue"),
    h("p", { class: "muted" }, "The gangs of every queue that wait, in the order the scheduler's next cycle tries them."),
    view.queue.scheduling ? null
      : h("p", { class: "note", id: "not-scheduling" },
        "This replica's scheduler is not scheduling (a standby, or not synced yet): its queue is empty for that reason."),
    h("h2", {}, "Cluster allocation"),
    h("div", { class: "bars", id: "cluster-resources" }, view.cluster.map(use => [
      h("span", {}, label(use.resource)),
      h("div", { class: "bar" }, h("div", { style: "width:" + (fraction(use) * 100).toFixed(1) + "%" })),
      h("span", { "data-resource": use.resource }, usage(use)),
    ])),
    h("h2", {}, "Waiting gangs (" + gangs.length + ")"),
    gangs.length === 0 ? h("p", { class: "muted", id: "queue-empty" }, "No gang is waiting.")
      : h("table", { id: "queue-table" },
        h("tr", {}, ["#", "gang", "priority", "pods", "state", "why it waits"].map(t => h("th", {}, t))),
        gangs.map(g => h("tr", { "data-gang": g.namespace + "/" + g.name },
          h("td", { class: "position" }, g.position),
          h("td", {}, g.podGroup ? jobLink(g.namespace, g.name) : g.name, h("span", { class: "muted" }, " " + g.namespace)),
          h("td", { class: "priority" }, g.priority),
          h("td", { class: "pods" }, g.pending + " pending, quorum " + g.minMember),
          h("td", { class: "state" }, g.state),
          h("td", { class: "message" }, g.message)))),
  ];
}

// ---- jobs ----

const jobFilters = { namespace: "", phase: "", name: "" };

function jobFilterBar() {
  const input = (key, placeholder) => h("input", {
    id: "filter-" + key, placeholder, value: jobFilters[key],
    oninput: e => { jobFilters[key] = e.target.value; refresh(); },
  });
  const phases = h("select", { id: "filter-phase", onchange: e => { jobFilters.phase = e.target.value; refresh(); } },
    h("option", { value: "" }, "any phase"), Object.keys(PHASE_COLOURS).map(p => h("option", { value: p }, p)));
  phases.value = jobFilters.phase;
  return h("div", { class: "filters" }, input("namespace", "namespace"), phases, input("name", "name contains"));
}

function jobsPage(jobs) {
  const shown = jobs.filter(j => (!jobFilters.namespace || j.summary.namespace === jobFilters.namespace)
    && (!jobFilters.phase || j.summary.phase === jobFilters.phase)
    && (!jobFilters.name || j.summary.name.includes(jobFilters.name)));
  return h("table", { id: "jobs-table" },
    h("tr", {}, ["namespace", "name", "phase", "reason", "tasks: running/replicas (other phases)", "pending", "running", "succeeded",
      "failed", "age"].map(t => h("th", {}, t))),
    shown.map(j => h("tr", { "data-job": j.summary.namespace + "/" + j.summary.name },
      h("td", {}, j.summary.namespace),
      h("td", {}, jobLink(j.summary.namespace, j.summary.name)),
      h("td", { class: "phase-cell" }, phaseCell(j.summary.phase)),
      h("td", { class: "reason", title: j.summary.message || "" }, j.summary.reason || ""),
      h("td", { class: "tasks" }, tasksText(j.tasks)),
      h("td", {}, j.summary.pending), h("td", {}, j.summary.running),
      h("td", {}, j.summary.succeeded), h("td", {}, j.summary.failed),
      h("td", {}, age(j.created)))));
}

// ---- a job ----

// Horizontal bars on a shared time axis: rows of [label, segments of {from, to, colour, title}].
function timeline(id, rows, from, to) {
  const left = 170, width = 760, rowHeight = 22, top = 24;
  const x = t => left + (width * (t - from)) / Math.max(1, to - from);
  const svg = h("svg:svg", { id, width: left + width + 40, height: top + rows.length * rowHeight + 8 });
  for (let i = 0; i <= 4; i++) {
    const t = from + ((to - from) * i) / 4;
    svg.append(h("svg:line", { x1: x(t), x2: x(t), y1: 16, y2: top + rows.length * rowHeight, stroke: "#e3e6ea" }),
      h("svg:text", { x: x(t), y: 12, "text-anchor": "middle" }, clock(t)));
  }
  rows.forEach(([name, segments, attrs], i) => {
    const y = top + i * rowHeight;
    const row = h("svg:g", attrs || {}, h("svg:text", { x: 4, y: y + 14 }, name));
    for (const s of segments) {
      row.append(h("svg:rect", { x: x(s.from), y: y + 3, width: Math.max(2, x(s.to) - x(s.from)), height: rowHeight - 8,
        fill: s.colour, rx: 2, "data-phase": s.phase || null }, h("svg:title", {}, s.title)));
    }
    svg.append(row);
  });
  return svg;
}

function legend(entries) {
  return h("p", { class: "legend" }, entries.map(([name, colour]) => h("span", {}, h("i", { style: "background:" + colour }), name)));
}

function jobPage(detail) {
  if (!detail) return [h("h1", {}, "Job not found"), h("p", { class: "muted" }, "The manager's cache does not hold it.")];
  const s = detail.job.summary;
  const now = Date.now();
  const phaseTimes = detail.phases.map(p => ms(p.time));
  const from = Math.min(ms(detail.job.created), ...phaseTimes, ...detail.pods.map(p => ms(p.started) || now));
  const to = detail.job.finished ? Math.max(ms(detail.job.finished), ...detail.pods.map(p => ms(p.finished) || 0)) : now;
  const phaseSegments = detail.phases.map((p, i) => ({
    from: ms(p.time), to: i + 1 < detail.phases.length ? ms(detail.phases[i + 1].time) : to,
    colour: PHASE_COLOURS[p.phase] || WAITING_COLOUR, phase: p.phase, title: p.phase + " from " + clock(ms(p.time)),
  }));
  const podRows = detail.pods.map(p => [p.name, p.started ? [{
    from: ms(p.started), to: ms(p.finished) || now, colour: p.phase === "Failed" ? PHASE_COLOURS.Failed
      : p.phase === "Succeeded" ? PHASE_COLOURS.Completed : PHASE_COLOURS.Running,
    title: p.name + " on " + p.node + ": " + p.phase,
  }] : [], { "data-pod": p.name }]);
  return [
    h("h1", {}, s.namespace + "/" + s.name + " ", h("span", { id: "job-phase" }, phaseCell(s.phase))),
    h("p", {}, h("b", {}, s.reason || ""), " ", h("span", { id: "job-message" }, s.message || "")),
    whyItWaits(detail),
    h("p", {}, "minAvailable " + s.minAvailable + "; tasks (running/replicas): " + tasksText(detail.job.tasks)
      + "; retries " + s.retryCount),
    h("h2", {}, "Timeline"),
    legend([["Pending", PHASE_COLOURS.Pending], ["Running", PHASE_COLOURS.Running], ["Completed / pod Succeeded",
      PHASE_COLOURS.Completed], ["Failed", PHASE_COLOURS.Failed]]),
    timeline("timeline", [["phases", phaseSegments, { "data-row": "phases" }], ...podRows], from, Math.max(to, from + 1000)),
    h("h2", {}, "PodGroup conditions"),
    detail.podGroupConditions.length === 0 ? h("p", { class: "muted" }, "None yet.")
      : h("table", { id: "podgroup-conditions" },
        h("tr", {}, ["type", "status", "reason", "message", "since"].map(t => h("th", {}, t))),
        detail.podGroupConditions.map(c => h("tr", { "data-type": c.type }, h("td", {}, c.type), h("td", {}, c.status),
          h("td", {}, c.reason || ""), h("td", {}, c.message || ""), h("td", {}, c.time ? clock(ms(c.time)) : "")))),
    h("h2", {}, "Pods"),
    detail.pods.length === 0 ? h("p", { class: "muted", id: "no-pods" }, "No pods: the gang has not been admitted.")
      : h("table", { id: "pods-table" },
        h("tr", {}, ["pod", "task", "node", "phase", "started", "finished"].map(t => h("th", {}, t))),
        detail.pods.map(p => h("tr", { "data-pod": p.name }, h("td", {}, p.name), h("td", {}, p.task || ""),
          h("td", {}, p.node || "(not bound)"), h("td", {}, p.phase || ""),
          h("td", {}, p.started ? clock(ms(p.started)) : ""), h("td", {}, p.finished ? clock(ms(p.finished)) : "")))),
  ];
}

// The scheduler's word when the gang is queued, otherwise the PodGroup's Unschedulable condition.
function whyItWaits(detail) {
  const q = detail.queued;
  if (q) {
    return h("div", { class: "why", id: "why-waits" }, ordinal(q.position) + " in the scheduler's queue (" + q.state
      + ", priority " + q.priority + "): " + q.message);
  }
  const u = detail.podGroup && detail.podGroup.unschedulable;
  if (u && u.status === "True") return h("div", { class: "why", id: "why-waits" }, u.reason + ": " + u.message);
  return null;
}

// ---- nodes ----

// White to red by how much of a resource is allocated.
function heat(f) { return "hsl(" + (120 - 120 * f).toFixed(0) + ", 70%, " + (92 - 40 * f).toFixed(0) + "%)"; }

function nodesPage(nodes) {
  const resources = nodes.length ? nodes[0].resources.map(r => r.resource) : [];
  return [
    h("h1", {}, "Nodes"),
    h("p", { class: "muted" }, "Allocated / allocatable per node; the colour goes from green (free) to red (full)."),
    h("table", { class: "heat", id: "nodes-heat" },
      h("tr", {}, h("th", {}, "node"), resources.map(r => h("th", {}, label(r))), h("th", {}, "gangs on it")),
      nodes.map(n => h("tr", { "data-node": n.name }, h("th", {}, n.name),
        n.resources.map(use => h("td", {
          class: "cell", "data-resource": use.resource,
          style: "background:" + (use.allocatable > 0 ? heat(fraction(use)) : "#eef0f3"),
        }, use.allocatable > 0 ? usage(use) : "-")),
        h("td", { class: "gangs" }, n.gangs.join(", "))))),
  ];
}

// ---- Gantt ----

let ganttSpan = "fit";

function ganttPage(jobs) {
  const now = Date.now();
  const spans = { "1h": 3600e3, "3h": 3 * 3600e3, "6h": 6 * 3600e3, "24h": 24 * 3600e3 };
  const shown = jobs.filter(j => !j.finished || ms(j.finished) > now - (spans[ganttSpan] || spans["6h"]))
    .sort((a, b) => ms(a.created) - ms(b.created));
  const from = ganttSpan === "fit" ? Math.min(now - 10e3, ...shown.map(j => ms(j.created))) : now - spans[ganttSpan];
  const clip = t => Math.max(from, t);
  const rows = shown.map(j => {
    const started = ms(j.started), end = ms(j.finished) || now;
    const segments = [{ from: clip(ms(j.created)), to: started || end, colour: WAITING_COLOUR, title: "waiting" }];
    if (started) {
      segments.push({ from: clip(started), to: end, colour: PHASE_COLOURS[j.summary.phase] || PHASE_COLOURS.Running,
        phase: j.summary.phase, title: j.summary.phase });
    }
    return [j.summary.namespace + "/" + j.summary.name, segments, { "data-job": j.summary.namespace + "/" + j.summary.name }];
  });
  const select = h("select", { id: "gantt-span", onchange: e => { ganttSpan = e.target.value; refresh(); } },
    ["fit", ...Object.keys(spans)].map(s => h("option", { value: s }, s === "fit" ? "since the oldest job" : "last " + s)));
  select.value = ganttSpan;
  return [
    h("h1", {}, "Jobs over time"),
    h("div", { class: "filters" }, select),
    legend([["waiting (created, not yet Running)", WAITING_COLOUR], ["Running", PHASE_COLOURS.Running],
      ["Completed", PHASE_COLOURS.Completed], ["Failed", PHASE_COLOURS.Failed]]),
    timeline("gantt", rows, from, now),
  ];
}

// ---- routing and polling ----

function route() {
  const parts = location.hash.replace(/^#\/?/, "").split("/").map(decodeURIComponent);
  switch (parts[0]) {
    case "jobs": return { page: "jobs", path: "jobs", render: jobsPage, fixed: jobFilterBar, title: "Jobs" };
    case "job": return { page: "jobs", path: "jobs/" + parts.slice(1, 3).map(encodeURIComponent).join("/"), render: jobPage };
    case "nodes": return { page: "nodes", path: "nodes", render: nodesPage };
    case "gantt": return { page: "gantt", path: "jobs", render: ganttPage };
    case "scheduler": return { page: "scheduler", path: "queue", render: schedulerQueuePage };
    default: return { page: "queues", path: "queues", render: queuesPage };
  }
}

let current = null;

async function refresh() {
  const r = current;
  try {
    const data = await getJson(r.path);
    if (r !== current) return;
    const content = document.getElementById("content");
    content.replaceChildren(...[r.render(data)].flat().filter(Boolean));
    document.getElementById("updated").textContent = "updated " + clock(Date.now());
  } catch (e) {
    if (e instanceof AuthError) {
      clearInterval(timer);
      document.getElementById("content").replaceChildren(tokenForm(e));
      document.getElementById("updated").textContent = "";
      return;
    }
    document.getElementById("updated").textContent = "not updated: " + e.message;
  }
}

// Asks for a token when there is none, or the one given is not accepted (401) or may see nothing (403).
function tokenForm(error) {
  const input = h("input", { id: "token", type: "password", autocomplete: "off", size: 60,
    placeholder: "bearer token, e.g. from: kubectl create token SERVICE-ACCOUNT -n NAMESPACE" });
  const use = (event) => {
    event.preventDefault();
    if (input.value.trim()) sessionStorage.setItem(TOKEN_KEY, input.value.trim());
    show();
  };
  return h("form", { id: "sign-in", class: "sign-in", onsubmit: use },
    h("h1", {}, error.status === 401 ? "Sign in" : "Not allowed"),
    h("p", { class: "muted" }, error.message),
    h("p", {}, "The dashboard shows the jobs of the namespaces your Kubernetes user may list Muster Jobs in. "
      + "Paste a bearer token the cluster accepts; it is kept in this tab only."),
    input, " ", h("button", { type: "submit" }, "Use token"));
}

function show() {
  current = route();
  document.querySelectorAll("nav a").forEach(a => a.classList.toggle("active", a.dataset.page === current.page));
  const page = document.getElementById("page");
  page.replaceChildren(...(current.fixed ? [h("h1", {}, current.title), current.fixed()] : []), h("div", { id: "content" }));
  clearInterval(timer);
  refresh();
  timer = setInterval(refresh, POLL_MS);
}

window.addEventListener("hashchange", show);
show();
