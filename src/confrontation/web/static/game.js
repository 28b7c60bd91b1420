// The game page: polls the JSON API, draws the table (server-made SVG), shows the pending
// question as buttons and its places as points on the table, and sends the answers.
"use strict";

let selected = null; // the fighter of yours clicked: his options are highlighted
let tool = null; // "ruler" or "sight" while a tool is in use
let toolPicks = [];
let proposal = null; // a destination clicked, waiting for confirmation: {index, path}

function render(next) {
  view = next;
  root.dataset.turn = view.turn;
  root.dataset.kind = view.question && view.question.kind ? view.question.kind : "";
  root.dataset.status = view.status;
  renderStatus();
  // the table and the question are drawn again only when the game moved on: a poll keeps
  // what the player is doing (a fighter selected, a path drawn, the ruler, a folded list)
  const key = `${view.turn}/${view.status}/${view.question ? view.question.kind || view.question.waiting : ""}/${view.fighters.length}`;
  redrawIfMoved(key);
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
  svg.addEventListener("pointermove", onFacingDrag);
  svg.addEventListener("pointerup", onFacingDrop);
  svg.addEventListener("pointerleave", onFacingDrop);
  if (q && q.kind === "destination") svg.addEventListener("mousemove", onBoardHover);
  const acting = q && q.actors ? q.actors : {};
  const aimed = q && q.targets ? q.targets : {};
  for (const group of svg.querySelectorAll("g.fighter")) {
    const id = group.dataset.fighter;
    group.addEventListener("mouseenter", (event) => showCard(id, event));
    group.addEventListener("mouseleave", () => (document.getElementById("card").hidden = true));
    if (acting[id]) group.classList.add("can-act");
    if (aimed[id]) group.classList.add("can-target");
    if (id === selected) group.classList.add("selected");
    group.addEventListener("click", (event) => onFighterClick(id, event));
  }
  drawOverlay(svg);
}

function line(svg, points, cls) {
  const path = document.createElementNS(SVGNS, "polyline");
  path.setAttribute("points", points.map(([x, y]) => svgPoint(svg, x, y).join(",")).join(" "));
  path.setAttribute("class", cls);
  svg.append(path);
  return path;
}

function drawOverlay(svg) {
  svg = svg || document.querySelector("#board svg");
  if (!svg) return;
  for (const old of svg.querySelectorAll(".overlay")) old.remove();
  if (proposal && proposal.path) line(svg, proposal.path, "overlay move-path");
  if (proposal && proposal.index !== null && proposal.index !== undefined) {
    const option = view.question.options[proposal.index];
    if (option && option.place) {
      const [cx, cy] = svgPoint(svg, option.place.x, option.place.y);
      const ring = document.createElementNS(SVGNS, "circle");
      ring.setAttribute("cx", cx);
      ring.setAttribute("cy", cy);
      ring.setAttribute("r", 9);
      ring.setAttribute("class", "overlay chosen-spot");
      svg.append(ring);
    }
  }
  drawFacing(svg);
  if (toolPicks.length && toolPicks.every((p) => p.x !== undefined)) {
    const pts = toolPicks.map((p) => [p.x, p.y]);
    if (pts.length === 1) pts.push(pts[0]);
    line(svg, pts, "overlay ruler-line" + (tool === "sight" ? " sight-line" : ""));
  }
}

// --- the facing (V-B-1, V-B-2): dragged on the table from the chosen place, or typed ---------

let dragging = false;
let dragEnded = -Infinity; // when a drag ended: the click that may follow it is no destination

function facingPlace() {
  // the place whose facing may be chosen: the destination proposed (a walk, run, cover) or
  // the deployment place clicked
  const q = view && view.question;
  if (!q || q.free !== "facing" || !proposal || proposal.hovered) return null;
  if (proposal.index === null || proposal.index === undefined) return null;
  const option = q.options[proposal.index];
  return option && option.place ? option : null;
}

function facingNow(option) {
  const input = document.getElementById("facing");
  return input && input.value !== "" ? Number(input.value) : option.place.facing;
}

function drawFacing(svg) {
  const option = facingPlace();
  if (!option) return;
  const { x, y } = option.place;
  const a = (facingNow(option) * Math.PI) / 180;
  const tip = [x + 4 * Math.cos(a), y + 4 * Math.sin(a)];
  line(svg, [[x, y], tip], "overlay facing-arrow");
  const [hx, hy] = svgPoint(svg, tip[0], tip[1]);
  const handle = document.createElementNS(SVGNS, "circle");
  handle.setAttribute("cx", hx);
  handle.setAttribute("cy", hy);
  handle.setAttribute("r", 7);
  handle.setAttribute("class", "overlay facing-handle");
  handle.id = "facing-handle";
  const title = document.createElementNS(SVGNS, "title");
  title.textContent = "Drag to turn him (any facing, V-B-1)";
  handle.append(title);
  handle.addEventListener("pointerdown", (event) => {
    event.preventDefault();
    event.stopPropagation();
    dragging = true;
  });
  svg.append(handle);
}

function onFacingDrag(event) {
  if (!dragging) return;
  const option = facingPlace();
  if (!option) return;
  const [x, y] = cmAt(event);
  const angle = ((Math.atan2(y - option.place.y, x - option.place.x) * 180) / Math.PI + 360) % 360;
  const input = document.getElementById("facing");
  if (input) input.value = String(Math.round(angle) % 360);
  drawOverlay();
}

function onFacingDrop() {
  if (!dragging) return;
  dragging = false;
  dragEnded = performance.now();
  checkFacing();
}

async function checkFacing() {
  // the engine's word on the facing before it is sent (engine.step.refusal)
  const option = facingPlace();
  const out = document.getElementById("facing-check");
  const input = document.getElementById("facing");
  if (!option || !out || !input) return;
  if (input.value === "") {
    // blank: the facing offered, always allowed
    out.textContent = "";
    const confirm = document.getElementById("confirm");
    if (confirm) {
      confirm.disabled = false;
      if (confirm.dataset.label) confirm.textContent = confirm.dataset.label;
    }
    drawOverlay();
    return;
  }
  try {
    const response = await fetch(api("/facing", `option=${option.index}&facing=${Number(input.value)}`));
    const body = await response.json();
    if (!response.ok) throw new Error(body.detail);
    out.textContent = body.refused ? `Facing ${input.value}° refused: ${body.refused}` : `Facing ${input.value}°: allowed`;
    out.className = body.refused ? "error" : "hint";
    const confirm = document.getElementById("confirm");
    if (confirm) {
      confirm.disabled = !!body.refused;
      confirm.dataset.label = confirm.dataset.label || confirm.textContent;
      confirm.textContent = confirm.dataset.label + (body.refused ? "" : `, turned to ${input.value}°`);
    }
  } catch (error) {
    out.textContent = String(error.message || error);
  }
}

function cmAt(event) {
  const svg = document.querySelector("#board svg");
  const box = svg.getBoundingClientRect();
  const x = ((event.clientX - box.left) / box.width) * view.table.width;
  const y = view.table.height - ((event.clientY - box.top) / box.height) * view.table.height;
  return [x, y];
}

function onFighterClick(id, event) {
  const fighter = view.fighters.find((f) => f.id === id);
  if (tool) {
    event.stopPropagation();
    const [x, y] = fighter ? [fighter.x, fighter.y] : cmAt(event);
    return pickForTool({ ref: id, x, y, label: fighter ? `${fighter.name} (${id})` : id });
  }
  const q = view.question;
  if (!q || !q.options) return;
  const acting = (q.actors || {})[id];
  const aimed = (q.targets || {})[id];
  if (!acting && !aimed) return; // a click on the table below him (a place, say)
  event.stopPropagation();
  if (acting && (!aimed || !selected)) {
    selected = selected === id ? null : id;
    proposal = null;
    renderBoard();
    renderQuestion();
    return;
  }
  // an enemy the question lets him target: the options of the selected fighter aimed at him
  const mine = selected ? new Set((q.actors || {})[selected] || []) : null;
  const matching = aimed.filter((i) => !mine || mine.has(i));
  if (matching.length === 1) return answer(matching[0]);
  showChoices(matching.length ? matching : aimed, `Against ${fighter ? fighter.name : id}:`);
}

function showChoices(indices, title) {
  const box = document.getElementById("choices");
  box.replaceChildren(el("b", {}, title));
  for (const i of indices) {
    const option = view.question.options[i];
    const button = el("button", { class: "option choice", "data-index": i }, option.label);
    if (option.detail) button.append(el("small", {}, " — " + option.detail));
    if (option.odds) button.append(el("span", { class: "odds" }, option.odds.text));
    button.addEventListener("click", () => answer(i));
    box.append(button);
  }
  box.hidden = false;
}

// --- the ruler and the line of sight ---------------------------------------------------

function setTool(name) {
  tool = tool === name ? null : name;
  toolPicks = [];
  for (const b of document.querySelectorAll("#tools button")) b.classList.toggle("on", b.dataset.tool === tool);
  document.getElementById("tool-result").textContent = tool === "ruler" ? "Click two points or fighters." : tool === "sight" ? "Click the fighter who looks, then the one he looks at." : "";
  drawOverlay();
}

async function pickForTool(pick) {
  if (tool === "sight" && !pick.ref) return;
  toolPicks.push(pick);
  if (toolPicks.length > 2) toolPicks = [pick];
  drawOverlay();
  const out = document.getElementById("tool-result");
  if (toolPicks.length < 2) {
    out.textContent = `From ${pick.label}…`;
    return;
  }
  const [a, b] = toolPicks.map((p) => p.ref || `${p.x.toFixed(2)},${p.y.toFixed(2)}`);
  const path = tool === "ruler" ? "/measure" : "/sight";
  try {
    const response = await fetch(api(path, `a=${encodeURIComponent(a)}&b=${encodeURIComponent(b)}`));
    const body = await response.json();
    if (!response.ok) throw new Error(body.detail);
    out.textContent = tool === "ruler" ? `${toolPicks[0].label} → ${toolPicks[1].label}: ${body.cm} cm (${body.between})` : `${body.text}: ${body.sight} sight`;
  } catch (error) {
    out.textContent = String(error.message || error);
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

async function onBoardClick(event) {
  if (performance.now() - dragEnded < 300) return; // the click ending a drag
  const [x, y] = cmAt(event);
  if (tool) return pickForTool({ x, y, label: `(${x.toFixed(1)}, ${y.toFixed(1)})` });
  const q = view.question;
  if (!q || !q.options) return;
  const placed = q.options.filter((o) => o.place);
  if (!placed.length) return;
  if (q.kind === "destination") return proposeDestination(x, y);
  if (q.kind === "deploy") return deployAt(x, y);
  let best = placed[0];
  let bestDistance = Infinity;
  for (const option of placed) {
    const d = Math.hypot(option.place.x - x, option.place.y - y);
    if (d < bestDistance) [best, bestDistance] = [option, d];
  }
  answer(best.index);
}

let hoverTimer = null;
let hoverAt = null;

function onBoardHover(event) {
  // the path the engine would use to the place under the pointer, drawn once it rests
  if (tool || (proposal && proposal.index !== null && proposal.index !== undefined)) return;
  hoverAt = cmAt(event);
  clearTimeout(hoverTimer);
  hoverTimer = setTimeout(async () => {
    const [x, y] = hoverAt;
    try {
      const response = await fetch(api("/destination", `x=${x}&y=${y}`));
      if (!response.ok) return;
      const body = await response.json();
      if (proposal && proposal.index !== null && proposal.index !== undefined) return;
      proposal = body.index !== null ? { index: body.index, path: body.path, hovered: true } : null;
      drawOverlay();
      proposal = proposal && proposal.hovered ? null : proposal;
    } catch (error) {
      /* a hover is only a preview */
    }
  }, 250);
}

async function proposeDestination(x, y) {
  const out = document.getElementById("refusal");
  try {
    const response = await fetch(api("/destination", `x=${x}&y=${y}`));
    const body = await response.json();
    if (!response.ok) throw new Error(body.detail);
    proposal = body;
    if (body.refused) {
      out.textContent = `(${x.toFixed(1)}, ${y.toFixed(1)}) refused: ${body.refused}`;
      out.hidden = false;
    } else {
      out.hidden = true;
    }
    renderConfirm();
    drawOverlay();
  } catch (error) {
    showError(String(error.message || error));
  }
}

async function deployAt(x, y) {
  // III-B-2: the place the click takes, or why the point is refused (III-A-1, II-E-3…)
  const out = document.getElementById("refusal");
  try {
    const response = await fetch(api("/deployment", `x=${x}&y=${y}`));
    const body = await response.json();
    if (!response.ok) throw new Error(body.detail);
    if (body.index === null || body.index === undefined) {
      out.textContent = `(${x.toFixed(1)}, ${y.toFixed(1)}) refused: ${body.refused}`;
      out.hidden = false;
      return;
    }
    out.hidden = true;
    if (view.question.free === "facing") {
      // his place chosen: the facing may be dragged or typed before confirming (III-B-2)
      proposal = { index: body.index, path: null };
      renderConfirm();
      drawOverlay();
      return;
    }
    answer(body.index);
  } catch (error) {
    showError(String(error.message || error));
  }
}

function renderConfirm() {
  const box = document.getElementById("confirm-box");
  box.replaceChildren();
  if (!proposal || proposal.index === null || proposal.index === undefined) {
    box.hidden = true;
    return;
  }
  const option = view.question.options[proposal.index];
  const length = proposal.length !== null && proposal.length !== undefined ? ` — ${proposal.length} cm along the drawn path` : "";
  const button = el("button", { id: "confirm", class: "option" }, `Confirm: ${option.label}${length}`);
  button.addEventListener("click", () => answer(proposal.index));
  box.append(button);
  if (view.question.free === "facing") {
    box.append(el("span", { class: "hint" }, " Drag the red handle to turn him, or type the facing below (V-B-1, III-B-2)."));
    checkFacing();
  }
  box.hidden = false;
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
  const auto = el("label", { class: "auto" });
  const check = el("input", { id: "auto", type: "checkbox" });
  check.checked = !!q.auto;
  check.addEventListener("change", () => setAuto(check.checked));
  auto.append(check, " answer my trivial questions for me (one legal answer, a raise that cannot change the outcome)");
  box.append(auto);
  if (q.hint !== null && q.hint !== undefined) {
    const hint = el("details", { id: "hint" });
    hint.append(el("summary", {}, "What would the AI do?"), el("span", {}, `The greedy AI, on what you see, would choose: ${q.options[q.hint].label}`));
    box.append(hint);
  }
  if (selected && q.actors && q.actors[selected]) {
    const f = view.fighters.find((g) => g.id === selected);
    box.append(el("p", { class: "hint focus-note" }, `${f ? f.name : selected} (${selected}): his ${q.actors[selected].length} option(s) are highlighted; click an enemy to target him.`));
  } else if (q.actors && Object.keys(q.actors).length) {
    box.append(el("p", { class: "hint" }, "Click one of your fighters (outlined) to see his actions."));
  }
  if (q.kind === "destination") {
    box.append(el("p", { class: "hint" }, "Click a point: the path the engine will use is drawn, then confirm."));
  }
  if (q.free === "facing") {
    const label = el("label", {}, "Facing (degrees, blank: as offered; or drag the handle on the table once a place is chosen) ");
    const input = el("input", { id: "facing", type: "number", min: 0, max: 359.9, step: "any" });
    input.addEventListener("input", () => drawOverlay());
    input.addEventListener("change", () => checkFacing());
    label.append(input);
    box.append(label, el("span", { id: "facing-check", class: "hint" }));
  }
  const places = q.options.filter((o) => o.place);
  if (places.length && q.kind === "deploy") {
    box.append(el("p", { class: "hint" }, `Click the table: a point where his base may stand takes the nearest of the ${places.length} marked places (then turn him if you like, and confirm); any other point is refused with the reason.`));
  } else if (places.length && q.kind !== "destination") {
    box.append(el("p", { class: "hint" }, `Click the table: the nearest of the ${places.length} marked places is taken.`));
  }
  const list = el("div", { class: "options" });
  for (const option of q.options) {
    const button = el("button", { class: "option", "data-index": option.index }, option.label);
    if (option.detail) button.append(el("small", {}, " — " + option.detail));
    if (option.odds) button.append(el("span", { class: "odds" }, option.odds.text));
    if (option.index === q.hint) button.classList.add("hinted");
    if (selected && q.actors && q.actors[selected]) {
      button.classList.add(q.actors[selected].includes(option.index) ? "focus" : "dim");
    }
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
    const item = el("li", {});
    if (line.dice && line.dice.length) {
      item.append(el("span", { class: "dice", title: "the dice as they fell" }, line.dice.map((d) => "⚀⚁⚂⚃⚄⚅"[d - 1]).join("")), " ");
    }
    item.append(line.text);
    if (line.section) item.append(" ", el("span", { class: "section" }, line.section));
    log.append(item);
  }
  log.dataset.round = round === null ? "" : round;
  if (view.log.length) log.parentElement.scrollTop = log.parentElement.scrollHeight;
  logFrom = view.log_from + view.log.length;
}

async function answer(index) {
  const body = { option: index, turn: view.turn };
  const facing = document.getElementById("facing");
  if (facing && facing.value !== "") body.facing = Number(facing.value);
  if (!(await sendAnswer(body))) return;
  selected = null;
  proposal = null;
  for (const id of ["choices", "confirm-box", "refusal"]) document.getElementById(id).hidden = true;
  refresh();
}

async function setAuto(on) {
  const response = await fetch(api("/auto", ""), {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ auto: on }),
  });
  if (!response.ok) showError((await response.json()).detail);
  refresh();
}

for (const button of document.querySelectorAll("#tools button")) {
  button.addEventListener("click", () => setTool(button.dataset.tool));
}

refresh();
