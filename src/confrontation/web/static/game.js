// The game page: polls the JSON API, draws the table (server-made SVG), shows the pending
// question as buttons and its places as points on the table, and sends the answers.
"use strict";

const root = document.getElementById("game");
const gameId = root.dataset.game;
const seats = new URLSearchParams(location.search).getAll("seat");
const seatQuery = seats.map((s) => "seat=" + encodeURIComponent(s)).join("&");
let view = null;
let logFrom = 0;
let timer = null;
let busy = false;

function api(path, extra) {
  const query = [seatQuery, extra].filter(Boolean).join("&");
  return `/api/games/${gameId}${path}${query ? "?" + query : ""}`;
}

function el(tag, attrs, text) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, v);
  if (text !== undefined) node.textContent = text;
  return node;
}

function showError(message) {
  const box = document.getElementById("error");
  box.textContent = message || "";
  box.hidden = !message;
}

async function refresh() {
  clearTimeout(timer);
  try {
    const response = await fetch(api("", "since=" + logFrom));
    const body = await response.json();
    if (!response.ok) throw new Error(body.detail);
    render(body);
  } catch (error) {
    showError(String(error.message || error));
  }
  if (!view || (view.status !== "over" && view.status !== "stopped")) {
    const waiting = view && view.status === "your-turn";
    timer = setTimeout(refresh, waiting ? 4000 : 500);
  }
}

function render(next) {
  view = next;
  root.dataset.turn = view.turn;
  root.dataset.status = view.status;
  renderStatus();
  renderBoard();
  renderQuestion();
  renderLog();
}

function renderStatus() {
  const status = document.getElementById("status");
  let text = view.round === 0 ? "Set-up and deployment (III-A, III-B)" : `Round ${view.round} of ${view.rounds} — ${view.phase} phase`;
  if (view.status === "over") {
    text = view.winner === null ? "The game is over: a draw." : `The game is over: Player ${view.winner + 1} wins.`;
  } else if (view.status === "stopped") {
    text = "The game stopped: " + view.error;
  }
  status.textContent = text;
  status.className = "status " + view.status;
  const players = document.getElementById("players");
  players.replaceChildren();
  for (const p of view.players) {
    const box = el("div", { class: `player p${p.player}${p.yours ? " yours" : ""}` });
    box.append(el("b", {}, `${p.name}${p.yours ? " (you)" : ""}`));
    box.append(el("span", {}, ` ${p.army} — ${p.seat} — ${p.score} VP — ${p.cards_left} card(s) left`));
    if (p.sequence && p.sequence.length) {
      box.append(el("div", { class: "sequence" }, "Sequence: " + p.sequence.join(" › ") + (p.reserve ? ` (reserve: ${p.reserve})` : "")));
    }
    players.append(box);
  }
}

function svgPoint(svg, x, y) {
  // table cm → SVG user units (the y axis points up the table: the drawing is flipped)
  const s = view.table.scale;
  return [x * s, (view.table.height - y) * s];
}

function renderBoard() {
  const board = document.getElementById("board");
  board.innerHTML = view.svg;
  const svg = board.querySelector("svg");
  if (!svg) return;
  svg.removeAttribute("width");
  svg.removeAttribute("height");
  const q = view.question;
  if (q && q.options) {
    for (const option of q.options) {
      if (!option.place) continue;
      const [cx, cy] = svgPoint(svg, option.place.x, option.place.y);
      const spot = document.createElementNS("http://www.w3.org/2000/svg", "circle");
      spot.setAttribute("cx", cx);
      spot.setAttribute("cy", cy);
      spot.setAttribute("r", 5);
      spot.setAttribute("class", "spot");
      spot.dataset.index = option.index;
      const title = document.createElementNS("http://www.w3.org/2000/svg", "title");
      title.textContent = option.label + (option.detail ? " — " + option.detail : "");
      spot.append(title);
      svg.append(spot);
    }
    if (q.options.some((o) => o.place)) svg.classList.add("placing");
  }
  svg.addEventListener("click", onBoardClick);
  for (const group of svg.querySelectorAll("g.fighter")) {
    group.addEventListener("mouseenter", (event) => showCard(group.dataset.fighter, event));
    group.addEventListener("mouseleave", () => (document.getElementById("card").hidden = true));
  }
}

function showCard(id, event) {
  const fighter = view.fighters.find((f) => f.id === id);
  const card = document.getElementById("card");
  if (!fighter) return;
  const p = fighter.profile;
  card.replaceChildren(
    el("b", {}, `${fighter.name} (${fighter.id})`),
    el("div", {}, `${fighter.card === fighter.name ? "" : fighter.card + " — "}Player ${fighter.player + 1}, ${p.people}, ${p.size}, ${p.AP} AP`),
    el("div", { class: "stats" }, ["MOV", "INI", "ATT", "STR", "DEF", "RES", "AIM", "DIS"].map((k) => `${k} ${p[k] ?? "–"}`).join("  ")),
    el("div", {}, `wound levels ${fighter.wounds}${fighter.markers.length ? "; " + fighter.markers.join(", ") : ""}; facing ${fighter.facing}°`),
  );
  if (p.abilities.length) card.append(el("div", {}, "Abilities: " + p.abilities.join(", ")));
  card.hidden = false;
  // beside the pointer, never over the fighter: to his left when he stands on the right
  const area = card.parentElement.getBoundingClientRect();
  const x = event.clientX - area.left;
  const y = event.clientY - area.top;
  const left = x > area.width / 2 ? x - card.offsetWidth - 24 : x + 24;
  card.style.left = Math.max(0, left) + "px";
  card.style.top = Math.max(0, y - card.offsetHeight / 2) + "px";
}

function onBoardClick(event) {
  const q = view.question;
  if (!q || !q.options) return;
  const placed = q.options.filter((o) => o.place);
  if (!placed.length) return;
  const svg = event.currentTarget;
  const box = svg.getBoundingClientRect();
  const x = ((event.clientX - box.left) / box.width) * view.table.width;
  const y = view.table.height - ((event.clientY - box.top) / box.height) * view.table.height;
  let best = placed[0];
  let bestDistance = Infinity;
  for (const option of placed) {
    const d = Math.hypot(option.place.x - x, option.place.y - y);
    if (d < bestDistance) [best, bestDistance] = [option, d];
  }
  answer(best.index);
}

function renderQuestion() {
  const box = document.getElementById("question");
  box.replaceChildren();
  const q = view.question;
  if (!q) {
    box.append(el("p", {}, view.status === "over" ? "No more questions." : "…"));
    return;
  }
  if (!q.options) {
    box.append(el("p", { class: "waiting" }, q.waiting));
    return;
  }
  box.append(el("h3", { id: "prompt" }, q.prompt));
  if (q.free === "facing") {
    const label = el("label", {}, "Facing (degrees, blank: as offered) ");
    const input = el("input", { id: "facing", type: "number", min: 0, max: 359.9, step: "any" });
    label.append(input);
    box.append(label);
  }
  const places = q.options.filter((o) => o.place);
  if (places.length) {
    box.append(el("p", { class: "hint" }, `Click the table: the nearest of the ${places.length} marked places is taken.`));
  }
  const list = el("div", { class: "options" });
  for (const option of q.options) {
    const button = el("button", { class: "option", "data-index": option.index }, option.label);
    if (option.detail) button.append(el("small", {}, " — " + option.detail));
    button.addEventListener("click", () => answer(option.index));
    list.append(button);
  }
  if (places.length > 8) {
    const more = el("details", {});
    more.append(el("summary", {}, "or pick from the list"), list);
    box.append(more);
  } else {
    box.append(list);
  }
}

function renderLog() {
  const log = document.getElementById("log");
  const seen = log.dataset.round;
  let round = seen === undefined || seen === "" ? null : Number(seen);
  for (const line of view.log) {
    if (line.round !== round) {
      round = line.round;
      log.append(el("li", { class: "round" }, round === 0 ? "Set-up and deployment" : `Round ${round}`));
    }
    log.append(el("li", {}, line.text));
  }
  log.dataset.round = round === null ? "" : round;
  if (view.log.length) log.parentElement.scrollTop = log.parentElement.scrollHeight;
  logFrom = view.log_from + view.log.length;
}

async function answer(index) {
  if (busy) return;
  busy = true;
  const body = { option: index, turn: view.turn };
  const facing = document.getElementById("facing");
  if (facing && facing.value !== "") body.facing = Number(facing.value);
  try {
    const response = await fetch(api("/answer", ""), {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(body),
    });
    const result = await response.json();
    if (!response.ok) throw new Error(result.detail);
    showError("");
  } catch (error) {
    showError(String(error.message || error));
  } finally {
    busy = false;
  }
  refresh();
}

refresh();
