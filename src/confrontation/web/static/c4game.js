// The page of a C4 game (the unit-based rules): polls the JSON API (the seat's own view
// only), draws the battlefield (server-made SVG), shows the seat's question as buttons — a
// move's destinations also as points on the table — and sends the answers.
"use strict";

let focus = null; // the option the mouse is over (its spot is highlighted)
const ACTIONS = { hold: "do nothing / fight", walk: "walk", walk_shoot: "walk and shoot", run: "run", assault: "assault" };

function render(next) {
  view = next;
  root.dataset.turn = view.turn;
  root.dataset.status = view.status;
  root.dataset.kind = view.question ? view.question.kind : "";
  renderStatus();
  const key = `${view.turn}/${view.status}/${view.round}/${view.phase}`;
  redrawIfMoved(key);
  renderLog();
}

function renderStatus() {
  const status = document.getElementById("status");
  status.className = "status " + view.status;
  let text = `Round ${view.round} of ${view.rounds}, ${view.phase} phase. `;
  if (view.status === "over") {
    text += view.winner === null ? "The game is over: a draw" : `The game is over: Player ${view.winner + 1} wins`;
    text += ` (${view.reason}; ${view.scores.join("-")}).`;
  } else if (view.status === "stopped") text += "The game stopped: " + view.error;
  else if (view.status === "your-turn") text += "Your turn: answer the question below.";
  else if (view.status === "waiting") text += `Waiting for Player ${view.waiting_for + 1}.`;
  else text += "The game is being played…";
  status.textContent = text;
  const players = document.getElementById("players");
  players.replaceChildren();
  for (const p of view.players) {
    const box = el("div", { class: `player p${p.player}${p.you ? " yours" : ""}`, "data-player": p.player });
    box.append(el("strong", {}, `${p.name}${p.you ? " (you)" : ""}`), ` — ${p.company}, ${p.seat}: ${p.units} units, ${p.fighters} fighters`);
    if (p.you) {
      const cards = [];
      if (p.sequence && p.sequence.length) cards.push("sequence: " + p.sequence.join(", "));
      if (p.reserve) cards.push("reserve: " + p.reserve);
      if (p.drawn) cards.push("drawn: " + p.drawn);
      if (cards.length) box.append(el("div", { class: "sequence" }, cards.join("; ")));
    }
    players.append(box);
  }
}

function renderBoard() {
  const board = document.getElementById("board");
  board.innerHTML = view.svg;
  const svg = board.querySelector("svg");
  const q = view.question;
  if (!svg || !q) return;
  for (const option of q.options) {
    if (!option.spot) continue;
    const spot = document.createElementNS(SVGNS, "circle");
    spot.setAttribute("cx", option.spot[0]);
    spot.setAttribute("cy", option.spot[1]);
    spot.setAttribute("r", 7);
    spot.setAttribute("class", `spot ${option.action}`);
    spot.dataset.index = option.index;
    const title = document.createElementNS(SVGNS, "title");
    title.textContent = option.label;
    spot.append(title);
    spot.addEventListener("click", () => answer(option.index));
    spot.addEventListener("mouseenter", () => highlight(option.index));
    svg.append(spot);
  }
}

function highlight(index) {
  focus = index;
  for (const node of document.querySelectorAll("[data-index]")) {
    node.classList.toggle("focus", Number(node.dataset.index) === index);
  }
}

function renderQuestion() {
  const box = document.getElementById("question");
  box.replaceChildren();
  const q = view.question;
  if (!q) {
    box.append(el("p", { class: "waiting" }, view.status === "over" ? "The game is over." : "No question for you now."));
    return;
  }
  box.append(el("p", { id: "prompt" }, q.prompt));
  // a unit's many options are grouped by action; the moves are also points on the table
  const groups = new Map();
  for (const option of q.options) {
    const name = option.action ? ACTIONS[option.action] || option.action : "";
    if (!groups.has(name)) groups.set(name, []);
    groups.get(name).push(option);
  }
  for (const [name, options] of groups) {
    const row = el("div", { class: "options" });
    if (name) row.append(el("span", { class: "group" }, name + ":"));
    for (const option of options) {
      const button = el("button", { class: "option", "data-index": option.index, type: "button" }, option.label);
      if (option.odds) button.append(el("span", { class: "odds" }, option.odds.text));
      button.addEventListener("click", () => answer(option.index));
      button.addEventListener("mouseenter", () => highlight(option.index));
      row.append(button);
    }
    box.append(row);
  }
  if (q.hint) {
    const hint = el("details", { id: "hint" });
    const said = `The greedy AI, on what you see, would choose: ${q.hint.label}` + (q.hint.reason ? ` (${q.hint.reason}).` : ".");
    hint.append(el("summary", {}, "What would the AI do?"), el("span", {}, said));
    hint.addEventListener("toggle", () => {
      for (const node of document.querySelectorAll(`[data-index="${q.hint.index}"]`)) node.classList.toggle("hinted", hint.open);
    });
    box.append(hint);
  }
  if (q.options.some((o) => o.odds)) {
    box.append(el("p", { class: "hint" }, "Beside a shot: each salvo's exact chance of eliminating one fighter or more, and the losses expected (each salvo as if it were the first); beside a walk then a shot, the same from the walk's end (the unit walked there as the engine walks it). Beside an assault: the Courage test against Fear, whether the distance round the obstacles reaches (twice the Movement), and the melee's exact expected losses if it does. Beside a fight: the melee's."));
  }
  if (q.options.some((o) => o.spot)) {
    box.append(el("p", { class: "hint" }, "The green points on the table are the moves' destinations: click one to move there."));
  }
}

function renderLog() {
  const log = document.getElementById("log");
  for (const line of view.log) {
    const item = el("li", {}, line);
    if (/^Round \d+ begins\.$/.test(line)) item.className = "round";
    log.append(item);
  }
  if (view.log.length) log.parentElement.scrollTop = log.parentElement.scrollHeight;
  logFrom = view.log_from + view.log.length;
}

async function answer(index) {
  if (await sendAnswer({ option: index, turn: view.turn })) refresh();
}

refresh();
