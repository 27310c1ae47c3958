// tabiya explorer: GPL-3.0-or-later. The page knows no chess rules: the server sends each
// position's FEN and legal moves (/api/explore), and every source's table for it.
'use strict';

const $ = (id) => document.getElementById(id);
const FILES = 'abcdefgh';

// What is shown: a start FEN (null: the initial position), the UCI moves played from it, and
// the moves taken back (for "forward").
const state = { fen: null, play: [], future: [], flipped: false, selected: null, answer: null, viewer: null, asked: 0 };
// Request-to-table-drawn times in milliseconds, newest last (read by the browser test).
window.tabiyaTimings = [];

// ---------------------------------------------------------------- the position and the URL

function readUrl() {
  const params = new URLSearchParams(location.search);
  state.fen = params.get('fen') || null;
  state.play = (params.get('play') || '').split(',').filter(Boolean);
}

function query() {
  const params = new URLSearchParams();
  if (state.fen) params.set('fen', state.fen);
  if (state.play.length) params.set('play', state.play.join(','));
  return params.toString();
}

async function show() {
  const started = performance.now();
  const asked = ++state.asked;
  const q = query();
  history.replaceState(null, '', q ? '?' + q : location.pathname);
  let answer;
  try {
    const response = await fetch('/api/explore?' + q);
    answer = await response.json();
    if (!response.ok) throw new Error(answer.error || response.statusText);
  } catch (e) {
    $('status').textContent = String(e.message || e);
    return;
  }
  // A later move was asked for while this answer came: that one is drawn instead.
  if (asked !== state.asked) return;
  $('status').textContent = '';
  state.answer = answer;
  state.selected = null;
  drawBoard();
  drawPlayed();
  drawTables();
  $('fen').value = answer.fen;
  $('opening').textContent = answer.opening ? `${answer.opening.eco} ${answer.opening.name}` : '';
  // Drawn: the frame with the new tables has been laid out.
  await new Promise((resolve) => requestAnimationFrame(() => resolve()));
  const elapsed = performance.now() - started;
  window.tabiyaTimings.push(elapsed);
  document.body.dataset.ready = String(window.tabiyaTimings.length);
}

function play(uci) {
  state.play.push(uci);
  state.future = state.future[state.future.length - 1] === uci ? state.future.slice(0, -1) : [];
  show();
}

function back() {
  if (!state.play.length) return;
  state.future.push(state.play.pop());
  show();
}

function forward() {
  if (!state.future.length) return;
  state.play.push(state.future.pop());
  show();
}

function goTo(ply) {
  while (state.play.length > ply) state.future.push(state.play.pop());
  while (state.play.length < ply && state.future.length) state.play.push(state.future.pop());
  show();
}

function setFen(fen) {
  state.fen = fen;
  state.play = [];
  state.future = [];
  show();
}

// ---------------------------------------------------------------- the board

function pieceAt(fen) {
  const pieces = {};
  fen.split(' ')[0].split('/').forEach((row, r) => {
    let file = 0;
    for (const c of row) {
      if (c >= '1' && c <= '8') { file += Number(c); continue; }
      const colour = c === c.toUpperCase() ? 'w' : 'b';
      pieces[FILES[file] + (8 - r)] = colour + c.toUpperCase();
      file += 1;
    }
  });
  return pieces;
}

function drawBoard() {
  const board = $('board');
  const pieces = pieceAt(state.answer.fen);
  const last = state.answer.played.length ? state.answer.played[state.answer.played.length - 1].uci : '';
  const dests = state.selected ? movesFrom(state.selected).map((m) => m.uci.slice(2, 4)) : [];
  board.replaceChildren();
  for (let i = 0; i < 64; i++) {
    const row = state.flipped ? 7 - Math.floor(i / 8) : Math.floor(i / 8);
    const col = state.flipped ? 7 - (i % 8) : i % 8;
    const name = FILES[col] + (8 - row);
    const square = document.createElement('div');
    square.className = 'square ' + ((row + col) % 2 ? 'dark' : 'light');
    square.dataset.square = name;
    if (last.slice(0, 2) === name || last.slice(2, 4) === name) square.classList.add('last');
    if (state.selected === name) square.classList.add('selected');
    if (dests.includes(name)) square.classList.add('dest');
    if (pieces[name]) {
      const img = document.createElement('img');
      img.src = `/pieces/${pieces[name]}.svg`;
      img.alt = pieces[name];
      square.dataset.piece = pieces[name];
      square.append(img);
    }
    if (i % 8 === 0) square.append(coord('rank', String(8 - row)));
    if (i >= 56) square.append(coord('file', FILES[col]));
    board.append(square);
  }
}

function coord(kind, text) {
  const span = document.createElement('span');
  span.className = 'coord ' + kind;
  span.textContent = text;
  return span;
}

function movesFrom(square) {
  return state.answer.legal.filter((m) => m.uci.startsWith(square));
}

// A move from `from` to `to` if one is legal; a promotion is to a queen.
function moveTo(from, to) {
  const moves = movesFrom(from).filter((m) => m.uci.slice(2, 4) === to);
  return moves.find((m) => m.uci.length === 4 || m.uci[4] === 'q');
}

function select(square) {
  state.selected = square && movesFrom(square).length ? square : null;
  drawBoard();
}

// Click a piece then a square, or drag the piece there.
function onPointerDown(event) {
  const square = event.target.closest('.square');
  if (!square || !state.answer) return;
  const name = square.dataset.square;
  if (state.selected && state.selected !== name) {
    const move = moveTo(state.selected, name);
    if (move) { play(move.uci); return; }
  }
  select(state.selected === name ? null : name);
  if (state.selected !== name) return;
  const img = square.querySelector('img');
  if (!img) return;
  const ghost = img.cloneNode();
  const size = square.getBoundingClientRect().width;
  ghost.className = 'dragged';
  ghost.style.width = ghost.style.height = size + 'px';
  const follow = (e) => { ghost.style.left = e.clientX - size / 2 + 'px'; ghost.style.top = e.clientY - size / 2 + 'px'; };
  follow(event);
  let moved = false;
  const move = (e) => { if (!moved) { document.body.append(ghost); moved = true; } follow(e); };
  const up = (e) => {
    document.removeEventListener('pointermove', move);
    document.removeEventListener('pointerup', up);
    ghost.remove();
    if (!moved) return;
    const target = document.elementFromPoint(e.clientX, e.clientY)?.closest('.square');
    const chosen = target && moveTo(name, target.dataset.square);
    if (chosen) play(chosen.uci);
  };
  document.addEventListener('pointermove', move);
  document.addEventListener('pointerup', up);
}

function drawPlayed() {
  const played = $('played');
  played.replaceChildren();
  state.answer.played.forEach((m, i) => {
    if (i % 2 === 0) played.append(`${i / 2 + 1}. `);
    const span = document.createElement('span');
    span.textContent = m.san;
    span.dataset.ply = String(i + 1);
    if (i === state.answer.played.length - 1) span.className = 'current';
    span.addEventListener('click', () => goTo(i + 1));
    played.append(span, ' ');
  });
}

// ---------------------------------------------------------------- the tables

const number = (v) => (v == null ? '' : Number(v).toLocaleString('en'));
const percent = (v) => (v == null ? '' : (100 * v).toFixed(1) + '%');

function score(m) {
  const n = (m.wins ?? 0) + (m.draws ?? 0) + (m.losses ?? 0);
  return m.wins == null || n === 0 ? null : (m.wins + m.draws / 2) / n;
}

// CTG keeps the recommendation and the ratings in the statistics of the position a move leads
// to (`child`), whose side to move is the mover's opponent.
const RECOMMENDATION = (bits) => (bits & 0x80 ? 'main' : bits & 0x40 ? 'avoid' : '');

// Every column a source may fill; a column appears when one of the source's moves has a value
// for it. Fields no column names appear as columns of their own (a new format's or the tree's).
const COLUMNS = [
  { key: 'games', title: 'games', value: (m) => m.games, text: number },
  { key: 'score', title: 'score', value: score, text: percent },
  { key: 'wdl', title: '+ = −', value: (m) => (m.wins == null ? null : `+${m.wins} =${m.draws} −${m.losses}`) },
  { key: 'weight', title: 'weight', value: (m) => (m.weight === m.games ? null : m.weight), text: number },
  { key: 'share', title: 'share', value: (m) => m.share, text: percent },
  { key: 'annotation', title: 'annotation', value: (m) => m.annotation },
  { key: 'recommendation', title: 'recommendation', value: (m) => (m.child ? RECOMMENDATION(m.child.recommendation) || null : null) },
  { key: 'ratings', title: 'ratings', value: (m) => ratings(m.child) },
  { key: 'comment', title: 'comment', value: (m) => m.comment, textual: true },
];
const SHOWN_ELSEWHERE = new Set(['uci', 'san', 'wins', 'draws', 'losses', 'white', 'black', 'child', 'child_in_book',
  'code', 'annotation_byte', 'raw_move']);

function ratings(child) {
  if (!child) return null;
  const mover = child.opponent_ratings?.average;
  const opponent = child.own_ratings?.average;
  return mover == null && opponent == null ? null : `${mover ?? '–'} vs ${opponent ?? '–'}`;
}

function columnsOf(moves) {
  const known = new Set(COLUMNS.map((c) => c.key));
  const columns = COLUMNS.filter((c) => moves.some((m) => c.value(m) != null && c.value(m) !== ''));
  const extra = new Set();
  for (const m of moves) for (const k of Object.keys(m)) if (!known.has(k) && !SHOWN_ELSEWHERE.has(k) && m[k] != null) extra.add(k);
  for (const k of extra) {
    columns.push({ key: k, title: k.replace(/_/g, ' '), value: (m) => m[k], text: (v) => (typeof v === 'object' ? JSON.stringify(v) : String(v)) });
  }
  return columns;
}

function drawTables() {
  const tables = $('tables');
  tables.replaceChildren(...state.answer.sources.map(sourceTable));
}

function sourceTable(source) {
  const section = document.createElement('section');
  section.className = 'source';
  section.dataset.source = String(source.source);
  section.dataset.format = source.format;
  const title = document.createElement('h2');
  title.append(source.path.split('/').pop() + ' ');
  const format = document.createElement('span');
  format.className = 'format';
  format.textContent = source.format;
  title.append(format);
  title.title = source.path;
  section.append(title);
  if (source.error) return section.append(note(source.error, 'error')), section;
  if (!source.found || !source.moves.length) return section.append(note('not in this source', 'note')), section;
  if (source.white != null) section.append(totals(source));
  if (source.position.comment) section.append(note(source.position.comment, 'note'));
  const columns = columnsOf(source.moves);
  const table = document.createElement('table');
  const head = table.createTHead().insertRow();
  for (const title of ['move', ...columns.map((c) => c.title), source.white != null ? 'white / draws / black' : null]) {
    if (title == null) continue;
    const th = document.createElement('th');
    th.textContent = title;
    head.append(th);
  }
  const body = table.createTBody();
  for (const m of source.moves) {
    const row = body.insertRow();
    row.dataset.uci = m.uci;
    row.addEventListener('click', () => play(m.uci));
    cell(row, 'san', m.san);
    for (const c of columns) {
      const v = c.value(m);
      const td = cell(row, c.key, v == null ? '' : c.text ? c.text(v) : String(v));
      if (c.textual) td.className = 'text';
    }
    if (source.white != null) row.insertCell().append(bar(m.white, m.draws, m.black));
  }
  section.append(table);
  if (source.topGames.length) section.append(topGames(source));
  for (const p of source.problems || []) section.append(note(p.message || JSON.stringify(p), 'note'));
  return section;
}

function cell(row, key, text) {
  const td = row.insertCell();
  td.dataset.col = key;
  td.textContent = text;
  return td;
}

function note(text, className) {
  const p = document.createElement('p');
  p.className = className;
  p.textContent = text;
  return p;
}

function totals(source) {
  const p = note(`results: white ${number(source.white)}, draws ${number(source.draws)}, black ${number(source.black)}`, 'note');
  p.dataset.col = 'totals';
  return p;
}

function bar(white, draws, black) {
  const total = (white ?? 0) + (draws ?? 0) + (black ?? 0);
  const div = document.createElement('div');
  div.className = 'bar';
  div.title = `white ${white}, draws ${draws}, black ${black}`;
  for (const [cls, n] of [['w', white], ['d', draws], ['b', black]]) {
    const part = document.createElement('span');
    part.className = cls;
    part.style.flex = String(total ? (n ?? 0) / total : 0);
    div.append(part);
  }
  return div;
}

function topGames(source) {
  const list = document.createElement('ol');
  list.className = 'top-games';
  list.title = 'top games: the best-rated games that reached this position';
  for (const g of source.topGames) {
    const item = document.createElement('li');
    const link = document.createElement('a');
    const player = (p) => `${p.name}${p.rating ? ' (' + p.rating + ')' : ''}`;
    link.textContent = `${player(g.white)} – ${player(g.black)} ${g.result} ${g.year ?? ''} ${g.event ?? ''}`;
    link.dataset.game = String(g.game);
    link.addEventListener('click', () => openGame(source.source, g.game));
    item.append(link);
    list.append(item);
  }
  return list;
}

// ---------------------------------------------------------------- the game viewer

async function openGame(source, game) {
  const response = await fetch(`/api/game?source=${source}&game=${game}`);
  const view = await response.json();
  if (!response.ok) { $('status').textContent = view.error; return; }
  const tag = (name) => (view.tags.find(([k]) => k === name) || [, ''])[1];
  $('viewer-title').textContent = `${tag('White')} – ${tag('Black')} ${view.result}`;
  $('viewer-tags').textContent = [tag('Event'), tag('Site'), tag('Date'), tag('Round')].filter((t) => t && t !== '?').join(', ');
  const moves = $('viewer-moves');
  moves.replaceChildren();
  const mainLine = [];
  drawLine(moves, view.moves, 0, mainLine);
  state.viewer = { start: view.start, mainLine, at: -1 };
  $('viewer').hidden = false;
  viewerStep(0);
}

// Appends `line`'s moves (from ply `ply`) to `parent`; the main line's nodes go to `mainLine`.
function drawLine(parent, line, ply, mainLine) {
  for (const c of line.comments) parent.append(comment(c));
  line.nodes.forEach((node, i) => {
    const at = ply + i;
    if (at % 2 === 0 || i === 0) parent.append(`${Math.floor(at / 2) + 1}.${at % 2 ? '..' : ''} `);
    const span = document.createElement('span');
    span.className = 'move';
    span.textContent = node.san + nags(node.nags);
    span.addEventListener('click', () => { viewerMark(span); setFen(node.fen); });
    parent.append(span, ' ');
    if (mainLine) mainLine.push({ node, span });
    for (const c of node.comments) parent.append(comment(c), ' ');
    for (const variation of node.variations) {
      const v = document.createElement('span');
      v.className = 'variation';
      v.append('( ');
      drawLine(v, variation, at, null);
      v.append(') ');
      parent.append(v);
    }
  });
}

const NAGS = { 1: '!', 2: '?', 3: '!!', 4: '??', 5: '!?', 6: '?!' };
const nags = (list) => list.map((n) => NAGS[n] || ` $${n}`).join('');

function comment(text) {
  const span = document.createElement('span');
  span.className = 'comment';
  span.textContent = text + ' ';
  return span;
}

function viewerMark(span) {
  document.querySelectorAll('#viewer-moves .current').forEach((s) => s.classList.remove('current'));
  if (span) span.classList.add('current');
}

// Shows ply `at` of the viewed game's main line (0: the start, before any move).
function viewerStep(at) {
  const v = state.viewer;
  v.at = Math.max(0, Math.min(at, v.mainLine.length));
  const node = v.mainLine[v.at - 1];
  viewerMark(node?.span);
  setFen(node ? node.node.fen : v.start);
}

function closeViewer() {
  state.viewer = null;
  $('viewer').hidden = true;
}

// ---------------------------------------------------------------- wiring

function onKey(event) {
  if (event.target.tagName === 'INPUT') return;
  const v = state.viewer;
  const actions = v
    ? { ArrowLeft: () => viewerStep(v.at - 1), ArrowRight: () => viewerStep(v.at + 1), ArrowUp: () => viewerStep(0), ArrowDown: () => viewerStep(v.mainLine.length), Escape: closeViewer }
    : { ArrowLeft: back, ArrowRight: forward, ArrowUp: () => goTo(0), ArrowDown: () => goTo(Infinity) };
  actions.f = flip;
  const action = actions[event.key];
  if (action) { event.preventDefault(); action(); }
}

function flip() {
  state.flipped = !state.flipped;
  drawBoard();
}

$('board').addEventListener('pointerdown', onPointerDown);
$('back').addEventListener('click', back);
$('forward').addEventListener('click', forward);
$('start').addEventListener('click', () => goTo(0));
$('end').addEventListener('click', () => goTo(Infinity));
$('flip').addEventListener('click', flip);
$('viewer-close').addEventListener('click', closeViewer);
$('fen-form').addEventListener('submit', (e) => { e.preventDefault(); setFen($('fen').value.trim()); });
document.addEventListener('keydown', onKey);
readUrl();
show();
