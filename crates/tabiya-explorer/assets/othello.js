// tabiya explorer, Othello: GPL-3.0-or-later. The board from /api/othello, one click a move;
// the URL holds the moves (?play=f5,d6,pass) so that a position can be shared.
"use strict";

const state = { played: [], answer: null };
const $ = (id) => document.getElementById(id);
const FILES = "abcdefgh";

function el(tag, attrs = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "class") e.className = v; else if (k.startsWith("on")) e.addEventListener(k.slice(2), v); else e.setAttribute(k, v);
  }
  for (const c of children) e.append(c);
  return e;
}

async function load() {
  const play = state.played.join(",");
  const url = new URL(location.href);
  if (play) url.searchParams.set("play", play); else url.searchParams.delete("play");
  history.replaceState(null, "", url);
  const response = await fetch("/api/othello?play=" + encodeURIComponent(play));
  const answer = await response.json();
  if (!response.ok) {
    $("status").textContent = answer.error;
    state.played.pop();
    document.body.dataset.ready = Number(document.body.dataset.ready || 0) + 1;
    return;
  }
  $("status").textContent = "";
  state.answer = answer;
  draw(answer);
  document.body.dataset.ready = Number(document.body.dataset.ready || 0) + 1;
}

function play(move) {
  state.played.push(move);
  load();
}

function draw(a) {
  const exact = new Map((a.exact || []).map((e) => [e.move, e.score]));
  const last = state.played[state.played.length - 1];
  const board = $("board");
  board.replaceChildren();
  for (let i = 0; i < 64; i++) {
    const name = FILES[i % 8] + (Math.floor(i / 8) + 1);
    const legal = a.legal.includes(name);
    const cell = el("div", { class: "cell" + (legal ? " legal" : "") + (name === last ? " last" : ""), "data-square": name });
    const disc = a.board[i];
    if (disc === "X" || disc === "O") cell.append(el("div", { class: "disc " + disc }));
    if (exact.has(name)) cell.append(el("span", { class: "score" }, String(exact.get(name))));
    if (legal) cell.addEventListener("click", () => play(name));
    board.append(cell);
  }
  $("discs").textContent = `Black ${a.discs[0]} – White ${a.discs[1]}, ${a.over ? "game over" : a.turn + " to move"}`;
  $("pass").disabled = !a.must_pass;
  $("played").textContent = a.played.join(" ");
  const exactTable = $("exact");
  exactTable.replaceChildren();
  if (a.exact) {
    exactTable.append(el("section", { class: "source", id: "exact-scores" }, el("h2", {}, `Exact scores (${a.empties} empties)`),
      table(["move", "score"], a.exact.map((e) => [e.move, e.score]))));
  }
  const tables = $("tables");
  tables.replaceChildren();
  for (const s of a.sources) {
    const section = el("section", { class: "source", "data-source": s.source }, el("h2", {}, s.book || "", " ", el("span", { class: "format" }, s.format || "")));
    if (s.error) section.append(el("p", { class: "error" }, s.error));
    else if (!s.found) section.append(el("p", { class: "note" }, "not in this tree"));
    else {
      const rows = s.moves.map((m) => [m.uci, m.games, m.wins, m.draws, m.losses, m.exact_score ?? "", m.last_year ?? ""]);
      const t = table(["move", "games", "wins", "draws", "losses", "exact", "last year"], rows);
      t.querySelectorAll("tbody tr").forEach((tr, n) => {
        const move = s.moves[n].uci;
        if (a.legal.includes(move)) tr.addEventListener("click", () => play(move));
      });
      section.append(el("p", { class: "note" }, "wins, draws and losses of the side to move"), t);
    }
    tables.append(section);
  }
}

function table(head, rows) {
  const body = el("tbody");
  for (const row of rows) body.append(el("tr", {}, ...row.map((c) => el("td", {}, String(c)))));
  return el("table", {}, el("thead", {}, el("tr", {}, ...head.map((h) => el("th", {}, h)))), body);
}

$("start").addEventListener("click", () => { state.played = []; load(); });
$("back").addEventListener("click", () => { state.played.pop(); load(); });
$("pass").addEventListener("click", () => play("pass"));
document.addEventListener("keydown", (e) => {
  if (e.key === "ArrowLeft") { state.played.pop(); load(); }
  if (e.key === "ArrowUp") { state.played = []; load(); }
  if (e.key === "p" && state.answer && state.answer.must_pass) play("pass");
});
const initial = new URL(location.href).searchParams.get("play");
state.played = initial ? initial.split(",").filter((m) => m) : [];
load();
