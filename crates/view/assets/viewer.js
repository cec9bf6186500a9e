// The stackchess game viewer. The data (in #data) was replayed by the move generator: per ply it
// holds the SAN, the changed cells and a check flag, so nothing here knows the rules.
// Test hooks: squares carry data-cell ("2e4", "e4" on one level) and data-piece ("N", "p", "");
// #pos carries data-game and data-ply; #list carries data-count; body carries data-ready and the
// page's own timings in milliseconds (data-load-ms, data-filter-ms, data-step-ms, data-step-max-ms).
(() => {
  'use strict';
  const t0 = performance.now();
  const DATA = JSON.parse(document.getElementById('data').textContent);
  const GAMES = DATA.games;
  const ROW = 24;
  const FILES = 'abcdefgh';
  // The filled symbols for both sides (coloured by CSS), in text presentation (U+FE0E: never emoji).
  const FILLED = { k: '\u265A', q: '\u265B', r: '\u265C', b: '\u265D', n: '\u265E', p: '\u265F' };
  const GLYPH = {};
  for (const [c, g] of Object.entries(FILLED)) {
    GLYPH[c] = g + '\uFE0E';
    GLYPH[c.toUpperCase()] = g + '\uFE0E';
  }
  const $ = (id) => document.getElementById(id);
  const el = (tag, cls, text) => {
    const e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  };
  const byId = new Map();
  GAMES.forEach((g, i) => byId.set(g.id, i));

  // ---- one game's plies, decoded on first use (a few games are kept)
  const cache = new Map();
  function decode(i) {
    let d = cache.get(i);
    if (d) return d;
    const plies = GAMES[i].p.map((s) => {
      const sp = s.indexOf(' ');
      let rest = s.slice(sp + 1);
      const check = rest.endsWith(' +');
      if (check) rest = rest.slice(0, -2);
      const cells = [];
      const pieces = [];
      for (let k = 0; k + 3 <= rest.length; k += 3) {
        cells.push(parseInt(rest.slice(k, k + 2), 16));
        pieces.push(rest[k + 2]);
      }
      return { san: s.slice(0, sp), cells, pieces, check };
    });
    d = { plies };
    if (cache.size >= 16) cache.clear();
    cache.set(i, d);
    return d;
  }
  const cellName = (c, levels) =>
    (levels > 1 ? String(Math.floor(c / 64) + 1) : '') + FILES[c % 8] + String(Math.floor((c % 64) / 8) + 1);
  // The side that moves at ply index i (0-based) of game g.
  const mover = (g, i) => ((g.c === 'w') === (i % 2 === 0) ? 'w' : 'b');
  const moveNumber = (g, i) => g.n + Math.floor((i + (g.c === 'b' ? 1 : 0)) / 2);

  // ---- state
  let cur = -1; // index into GAMES
  let ply = 0; // plies played from the game's first position
  let filtered = GAMES.map((_, i) => i);

  // ---- boards
  let boardLevels = 0;
  let squares = [];
  let shown = [];
  let marked = [];
  function buildBoards(levels) {
    const host = $('boards');
    host.textContent = '';
    host.style.setProperty('--levels', levels);
    squares = new Array(levels * 64);
    shown = new Array(levels * 64).fill(null);
    marked = [];
    for (let l = 0; l < levels; l++) {
      const wrap = el('div', 'level');
      wrap.dataset.level = String(l + 1);
      const grid = el('div', 'board');
      for (let r = 7; r >= 0; r--) {
        grid.appendChild(el('div', 'rl', String(r + 1)));
        for (let f = 0; f < 8; f++) {
          const c = l * 64 + r * 8 + f;
          const sq = el('div', 'sq ' + ((f + r) % 2 === 0 ? 'dk' : 'lt'));
          sq.dataset.cell = cellName(c, levels);
          sq.dataset.piece = '';
          squares[c] = sq;
          grid.appendChild(sq);
        }
      }
      grid.appendChild(el('div', 'fl'));
      for (let f = 0; f < 8; f++) grid.appendChild(el('div', 'fl', FILES[f]));
      wrap.append(el('div', 'cap', levels > 1 ? 'level ' + (l + 1) : 'board'), grid);
      host.appendChild(wrap);
    }
    boardLevels = levels;
  }
  function placementAt(g, d, n) {
    const a = g.s.split('');
    for (let i = 0; i < n; i++) {
      const p = d.plies[i];
      for (let k = 0; k < p.cells.length; k++) a[p.cells[k]] = p.pieces[k];
    }
    return a;
  }
  function drawBoards(g, d) {
    if (g.l !== boardLevels) buildBoards(g.l);
    const a = placementAt(g, d, ply);
    for (let c = 0; c < a.length; c++) {
      const p = a[c] === '.' ? '' : a[c];
      if (shown[c] === p) continue;
      shown[c] = p;
      const sq = squares[c];
      sq.dataset.piece = p;
      sq.textContent = p ? GLYPH[p] || p : '';
      sq.classList.toggle('pw', p !== '' && p === p.toUpperCase());
      sq.classList.toggle('pb', p !== '' && p !== p.toUpperCase());
    }
    for (const [c, cls] of marked) squares[c].classList.remove(cls);
    marked = [];
    if (ply > 0) {
      const last = d.plies[ply - 1];
      for (const c of last.cells.slice(0, 2)) marked.push([c, 'lm']);
      if (last.check) {
        const king = mover(g, ply) === 'w' ? 'K' : 'k';
        a.forEach((p, c) => {
          if (p === king) marked.push([c, 'chk']);
        });
      }
    }
    for (const [c, cls] of marked) squares[c].classList.add(cls);
  }

  // ---- move list
  let moveSpans = [];
  function buildMoves(g, d) {
    const host = $('moves');
    host.textContent = '';
    moveSpans = [];
    if (g.o > 0) host.appendChild(el('span', 'tag', `opening: ${g.o} plies (italic), then the game`));
    d.plies.forEach((p, i) => {
      if (i === g.o && g.o > 0) host.appendChild(el('span', 'tag', 'game'));
      if (mover(g, i) === 'w') host.appendChild(el('span', 'mn', moveNumber(g, i) + '.'));
      else if (i === 0 || i === g.o) host.appendChild(el('span', 'mn', moveNumber(g, i) + '\u2026'));
      const s = el('span', 'mv' + (i < g.o ? ' op' : ''), p.san);
      s.dataset.ply = String(i + 1);
      host.appendChild(s);
      host.appendChild(document.createTextNode(' '));
      moveSpans.push(s);
    });
    host.appendChild(el('span', 'end', `${g.r} (${g.t})`));
  }
  let curSpan = null;
  function markMove() {
    if (curSpan) curSpan.classList.remove('cur');
    curSpan = ply > 0 ? moveSpans[ply - 1] : null;
    if (curSpan) {
      curSpan.classList.add('cur');
      const box = $('moves');
      const top = curSpan.offsetTop - box.offsetTop;
      if (top < box.scrollTop || top > box.scrollTop + box.clientHeight - 24) box.scrollTop = top - box.clientHeight / 2;
    }
  }

  // ---- evaluation graph
  const GW = 1000;
  const GH = 150;
  const SVG = 'http://www.w3.org/2000/svg';
  const evalValue = (e) => {
    if (e === null || e === undefined) return null;
    if (typeof e === 'string') return e.startsWith('-') ? -1 : 1;
    return 2 / (1 + Math.exp(-e / 250)) - 1;
  };
  const evalText = (e) => (typeof e === 'number' ? (e >= 0 ? '+' : '') + (e / 100).toFixed(2) : e);
  let marker = null;
  function buildGraph(g) {
    const host = $('graph');
    host.textContent = '';
    marker = null;
    const total = g.p.length;
    if (!g.e) {
      host.appendChild(el('div', 'none', 'no evaluations recorded'));
      return;
    }
    host.appendChild(el('div', 'cap', "evaluation (White's view; top: White better, scaled so \u00b12.5 pawns is \u00be of the way)"));
    const svg = document.createElementNS(SVG, 'svg');
    svg.setAttribute('viewBox', `0 0 ${GW} ${GH}`);
    svg.setAttribute('preserveAspectRatio', 'none');
    const x = (i) => (total > 1 ? (i * GW) / total : GW / 2);
    const y = (v) => GH / 2 - (v * (GH - 8)) / 2;
    const add = (tag, attrs) => {
      const e = document.createElementNS(SVG, tag);
      for (const k in attrs) e.setAttribute(k, attrs[k]);
      e.setAttribute('vector-effect', 'non-scaling-stroke');
      svg.appendChild(e);
      return e;
    };
    add('rect', { x: 0, y: 0, width: GW, height: GH, fill: '#fbfbfb' });
    if (g.o > 0) add('rect', { x: 0, y: 0, width: x(g.o), height: GH, fill: '#eee' });
    const pts = [];
    g.e.forEach((e, i) => {
      const v = evalValue(e);
      if (v !== null) pts.push([x(i + 1), y(v)]);
    });
    if (pts.length) {
      const area = `M${pts[0][0]},${GH / 2} ` + pts.map((p) => `L${p[0]},${p[1]}`).join(' ') + ` L${pts[pts.length - 1][0]},${GH / 2} Z`;
      add('path', { d: area, fill: 'rgba(51,103,214,.18)', stroke: 'none' });
      add('path', { d: 'M' + pts.map((p) => `${p[0]},${p[1]}`).join(' L'), fill: 'none', stroke: '#3367d6', 'stroke-width': 1.5 });
    }
    add('line', { x1: 0, x2: GW, y1: GH / 2, y2: GH / 2, stroke: '#999', 'stroke-width': 1 });
    marker = add('line', { x1: 0, x2: 0, y1: 0, y2: GH, stroke: '#d33', 'stroke-width': 1.5 });
    svg.addEventListener('click', (ev) => {
      const r = svg.getBoundingClientRect();
      go(Math.round(((ev.clientX - r.left) / r.width) * total));
    });
    host.appendChild(svg);
    marker.dataset.total = String(total);
  }
  function markGraph(g) {
    if (!marker) return;
    const total = g.p.length;
    const xx = total > 0 ? (ply * GW) / total : 0;
    marker.setAttribute('x1', xx);
    marker.setAttribute('x2', xx);
  }

  // ---- the game's header and the position line
  function showInfo(g) {
    const info = $('info');
    info.textContent = '';
    const line1 = el('div');
    line1.append(el('b', '', g.id), ` \u00b7 ${g.v} \u00b7 White ${g.w} \u2013 Black ${g.b} \u00b7 `, el('span', 'res', `${g.r} (${g.t})`),
      ` \u00b7 ${g.p.length - g.o} plies` + (g.o ? ` after ${g.o} opening plies` : ''));
    const line2 = el('div');
    line2.append('start: ', el('code', '', g.f));
    info.append(line1, line2);
  }
  function showPos(g, d) {
    const pos = $('pos');
    const total = d.plies.length;
    let text = `ply ${ply} of ${total}`;
    if (ply > 0) {
      const i = ply - 1;
      text += ` \u00b7 ${moveNumber(g, i)}${mover(g, i) === 'w' ? '.' : '\u2026'} ${d.plies[i].san}`;
      if (i < g.o) text += ' (opening)';
      if (g.e && g.e[i] !== null && g.e[i] !== undefined) text += ` \u00b7 eval ${evalText(g.e[i])}`;
    }
    text += ply === total ? ` \u00b7 ${g.r} (${g.t})` : ` \u00b7 ${mover(g, ply) === 'w' ? 'White' : 'Black'} to move`;
    if (ply > 0 && d.plies[ply - 1].check) text += ' \u00b7 check';
    pos.textContent = text;
    pos.dataset.game = g.id;
    pos.dataset.ply = String(ply);
  }

  // ---- navigation
  function setHash() {
    const g = GAMES[cur];
    history.replaceState(null, '', `#game=${encodeURIComponent(g.id)}&ply=${ply}`);
  }
  function go(n) {
    if (cur < 0) return;
    const t = performance.now();
    const g = GAMES[cur];
    const d = decode(cur);
    ply = Math.max(0, Math.min(d.plies.length, Number.isNaN(n) ? 0 : Math.floor(n)));
    drawBoards(g, d);
    markMove();
    markGraph(g);
    showPos(g, d);
    setHash();
    const dt = performance.now() - t;
    document.body.dataset.stepMs = dt.toFixed(1);
    document.body.dataset.stepMaxMs = Math.max(dt, Number(document.body.dataset.stepMaxMs || 0)).toFixed(1);
  }
  function open(i, n) {
    if (i < 0 || i >= GAMES.length) return;
    cur = i;
    const g = GAMES[i];
    const d = decode(i);
    showInfo(g);
    buildMoves(g, d);
    buildGraph(g);
    curSpan = null;
    go(n);
    renderList();
  }

  // ---- the game list: only the visible rows are in the DOM
  const list = $('list');
  const spacer = $('list-spacer');
  let rows = [];
  function renderList() {
    const first = Math.max(0, Math.floor(list.scrollTop / ROW) - 5);
    const last = Math.min(filtered.length, Math.ceil((list.scrollTop + list.clientHeight) / ROW) + 5);
    for (const r of rows) r.remove();
    rows = [];
    const frag = document.createDocumentFragment();
    for (let k = first; k < last; k++) {
      const i = filtered[k];
      const g = GAMES[i];
      const r = el('div', 'row' + (i === cur ? ' sel' : ''));
      r.style.top = k * ROW + 'px';
      r.dataset.game = g.id;
      r.title = `${g.id}: White ${g.w}, Black ${g.b}`;
      r.append(el('span', 'gid', g.id), el('span', '', g.v), el('span', '', g.r), el('span', '', g.t), el('span', 'num', String(g.p.length - g.o)));
      r.addEventListener('click', () => open(i, 0));
      frag.appendChild(r);
      rows.push(r);
    }
    list.appendChild(frag);
  }
  let scrollPending = false;
  list.addEventListener('scroll', () => {
    if (scrollPending) return;
    scrollPending = true;
    requestAnimationFrame(() => {
      scrollPending = false;
      renderList();
    });
  });
  const filters = { v: $('f-variant'), r: $('f-result'), t: $('f-termination') };
  for (const [key, select] of Object.entries(filters)) {
    const counts = new Map();
    for (const g of GAMES) counts.set(g[key], (counts.get(g[key]) || 0) + 1);
    const all = el('option', '', `all (${GAMES.length})`);
    all.value = '';
    select.appendChild(all);
    for (const v of [...counts.keys()].sort()) {
      const o = el('option', '', `${v} (${counts.get(v)})`);
      o.value = v;
      select.appendChild(o);
    }
    select.addEventListener('change', applyFilter);
  }
  $('f-id').addEventListener('input', applyFilter);
  function applyFilter() {
    const t = performance.now();
    const want = { v: filters.v.value, r: filters.r.value, t: filters.t.value };
    const q = $('f-id').value.trim().toLowerCase();
    filtered = [];
    for (let i = 0; i < GAMES.length; i++) {
      const g = GAMES[i];
      if ((want.v === '' || g.v === want.v) && (want.r === '' || g.r === want.r) && (want.t === '' || g.t === want.t)
        && (q === '' || g.id.toLowerCase().includes(q))) filtered.push(i);
    }
    spacer.style.height = filtered.length * ROW + 'px';
    list.scrollTop = 0;
    renderList();
    $('count').textContent = `${filtered.length} of ${GAMES.length} games`;
    list.dataset.count = String(filtered.length);
    document.body.dataset.filterMs = (performance.now() - t).toFixed(1);
  }
  function nextGame(step) {
    if (!filtered.length) return;
    const k = filtered.indexOf(cur);
    const next = k < 0 ? 0 : Math.max(0, Math.min(filtered.length - 1, k + step));
    open(filtered[next], 0);
    const top = next * ROW;
    if (top < list.scrollTop || top > list.scrollTop + list.clientHeight - ROW) list.scrollTop = top - list.clientHeight / 2;
  }

  // ---- controls
  $('b-first').addEventListener('click', () => go(0));
  $('b-prev').addEventListener('click', () => go(ply - 1));
  $('b-next').addEventListener('click', () => go(ply + 1));
  $('b-last').addEventListener('click', () => go(Infinity));
  $('moves').addEventListener('click', (ev) => {
    const p = ev.target.dataset && ev.target.dataset.ply;
    if (p) go(Number(p));
  });
  document.addEventListener('keydown', (ev) => {
    const tag = ev.target.tagName;
    if (tag === 'INPUT' || tag === 'SELECT' || ev.altKey || ev.ctrlKey || ev.metaKey) return;
    const keys = {
      ArrowLeft: () => go(ply - 1),
      ArrowRight: () => go(ply + 1),
      Home: () => go(0),
      End: () => go(Infinity),
      ArrowUp: () => nextGame(-1),
      ArrowDown: () => nextGame(1),
    };
    if (keys[ev.key]) {
      ev.preventDefault();
      keys[ev.key]();
    }
  });
  function fromHash() {
    const h = new URLSearchParams(location.hash.slice(1));
    const id = h.get('game');
    if (id === null) return false;
    const i = byId.get(id);
    if (i === undefined) {
      if (cur < 0) open(0, 0);
      $('info').prepend(el('div', 'missing', `game ${id} is not in this page`));
      return true;
    }
    const n = Number(h.get('ply') || 0);
    if (i === cur) go(n);
    else open(i, n);
    return true;
  }
  window.addEventListener('hashchange', fromHash);

  // ---- start
  for (const n of DATA.notes) $('notes').appendChild(el('div', '', n));
  applyFilter();
  if (!GAMES.length) $('info').textContent = 'no games';
  else if (!fromHash()) open(0, 0);
  document.body.dataset.loadMs = (performance.now() - t0).toFixed(1);
  document.body.dataset.ready = '1';
})();
