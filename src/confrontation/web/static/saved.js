// Saved games and replays (docs/web.md): the games list's resume and delete buttons, the seat
// links this browser opened ("play"), and the replay page's round slider.
"use strict";

const SEATS_KEY = "confrontation-seats";

function heldSeats() {
  try {
    return JSON.parse(localStorage.getItem(SEATS_KEY) || "{}");
  } catch (_) {
    return {};
  }
}

// A game page opened with seat tokens: remember its link for the games list.
function rememberSeats() {
  const match = location.pathname.match(/^\/games\/(\d+)$/);
  if (!match || !location.search.includes("seat=")) return;
  const held = heldSeats();
  held[match[1]] = location.pathname + location.search;
  localStorage.setItem(SEATS_KEY, JSON.stringify(held));
}

function showListError(text) {
  const box = document.getElementById("list-error");
  if (box) {
    box.textContent = text;
    box.hidden = false;
  }
}

async function refusal(response) {
  try {
    return (await response.json()).detail;
  } catch (_) {
    return response.statusText;
  }
}

function gamesList() {
  const table = document.getElementById("games");
  if (!table) return;
  const held = heldSeats();
  for (const row of table.querySelectorAll("tr[data-game]")) {
    const link = held[row.dataset.game];
    if (link) {
      const a = document.createElement("a");
      a.href = link;
      a.className = "play";
      a.textContent = "play";
      row.querySelector(".mine").append(a, " ");
    }
  }
  table.addEventListener("click", async (event) => {
    const button = event.target.closest("button");
    if (!button) return;
    const id = button.dataset.game;
    if (button.classList.contains("delete")) {
      if (!confirm(`Delete game ${id} and its whole record? This cannot be undone.`)) return;
      const response = await fetch(`/api/games/${id}`, { method: "DELETE" });
      if (!response.ok) return showListError(await refusal(response));
      document.getElementById(`game-${id}`).remove();
      const kept = heldSeats();
      delete kept[id];
      localStorage.setItem(SEATS_KEY, JSON.stringify(kept));
    } else if (button.classList.contains("resume")) {
      const response = await fetch(`/api/games/${id}/resume`, { method: "POST" });
      if (!response.ok) return showListError(await refusal(response));
      location.href = held[id] || (await response.json()).url;
    }
  });
}

function replaySlider() {
  const slider = document.getElementById("round");
  if (!slider) return;
  const game = document.getElementById("replay").dataset.game;
  const show = () => {
    const index = slider.value;
    for (const node of document.querySelectorAll(".frame, .frame-log")) {
      node.hidden = node.dataset.index !== index;
    }
    const frame = document.querySelector(`.frame[data-index="${index}"]`);
    document.getElementById("round-label").textContent = frame.dataset.label;
    document.getElementById("score").textContent = `score ${frame.dataset.score}`;
    const round = frame.dataset.round;
    // a C4 replay's last frame is the table now; the seats' tokens go with each download
    const seats = document.getElementById("replay").dataset.seats || "";
    const query = (round === "" ? "" : `&round=${round}`) + seats;
    const tail = query ? `?${query.slice(1)}` : "";
    document.getElementById("dl-svg").href = `/api/games/${game}/board.svg${tail}`;
    document.getElementById("dl-png").href = `/api/games/${game}/board.png${tail}`;
  };
  slider.addEventListener("input", show);
}

rememberSeats();
gamesList();
replaySlider();
