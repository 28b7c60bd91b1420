// What the two game pages share (loaded before game.js or c4game.js): the game and its seats
// from the address, the JSON API's URLs, the poll, the error line and sending an answer.
"use strict";

const root = document.getElementById("game");
const gameId = root.dataset.game;
const seats = new URLSearchParams(location.search).getAll("seat");
const seatQuery = seats.map((s) => "seat=" + encodeURIComponent(s)).join("&");
let view = null;
let logFrom = 0;
let timer = null;
let busy = false;
let shown = null; // what the table and the question were last drawn for
const SVGNS = "http://www.w3.org/2000/svg";

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

// The table and the question drawn again (the page script's renderBoard and renderQuestion)
// only when the game moved on (``key`` changed): a poll keeps what the player is doing.
function redrawIfMoved(key) {
  if (key !== shown) {
    shown = key;
    renderBoard();
    renderQuestion();
  }
}

// Poll the game (the page script's render draws it) until it is over or stopped.
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

// Send an answer ({option, turn[, facing]}); false if one is already on its way.
async function sendAnswer(body) {
  if (busy) return false;
  busy = true;
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
  return true;
}
