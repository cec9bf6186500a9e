// The stackchess analysis board. The page knows no rules: the server sends the position, the
// legal moves (from, to, promotion, kind, SAN), the move tree and the outcome; a click or a drag
// sends a move, and the server answers with the next state or an error.
// Test hooks: squares carry data-cell ("2e4"; "e4" on one level) and data-piece; #status carries
// data-node, data-lfen, data-turn and data-outcome; #lines carries data-node, data-count and
// data-done; #error-text carries data-count; body carries data-ready once the first state is shown.
(() => {
  'use strict';
  const FILES = 'abcdefgh';
  const FILLED = { k: '\u265A', q: '\u265B', r: '\u265C', b: '\u265D', n: '\u265E', p: '\u265F' };
  const glyph = (p) => (FILLED[p.toLowerCase()] || p) + '\uFE0E';
  const $ = (id) => document.getElementById(id);
  const el = (tag, cls, text) => {
    const e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  };
  const isWhite = (p) => p !== '.' && p === p.toUpperCase();

  // ---- state
  let ws = null;
  let S = null; // the last state
  let HELLO = null;
  let flipped = false;
  let selected = null; // the picked cell
  let dragFrom = null;
  let editing = null; // the editor's placement (array of characters) while editing
  let editPiece = 'P';
  let pendingSetup = false;
  let lines = null; // the last analysis lines of S.node
  let errors = 0;

  const cellName = (c, levels) =>
    (levels > 1 ? String(Math.floor(c / 64) + 1) : '') + FILES[c % 8] + String(Math.floor((c % 64) / 8) + 1);
  const coordOf = (m, levels) => cellName(m[0], levels) + cellName(m[1], levels) + m[2];

  function send(msg) {
    if (ws && ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify(msg));
  }
  function showError(text) {
    errors += 1;
    const t = $('error-text');
    t.textContent = text;
    t.dataset.count = String(errors);
    $('error').hidden = false;
  }
  function clearError() {
    $('error').hidden = true;
  }
  $('error-close').addEventListener('click', clearError);

  // ---- boards
  let built = '';
  let squares = [];
  function buildBoards(levels) {
    const host = $('boards');
    host.textContent = '';
    host.style.setProperty('--levels', levels);
    squares = new Array(levels * 64);
    for (let l = 0; l < levels; l++) {
      const wrap = el('div', 'level');
      wrap.dataset.level = String(l + 1);
      const grid = el('div', 'board');
      const ranks = flipped ? [0, 1, 2, 3, 4, 5, 6, 7] : [7, 6, 5, 4, 3, 2, 1, 0];
      const files = flipped ? [7, 6, 5, 4, 3, 2, 1, 0] : [0, 1, 2, 3, 4, 5, 6, 7];
      for (const r of ranks) {
        grid.appendChild(el('div', 'rl', String(r + 1)));
        for (const f of files) {
          const c = l * 64 + r * 8 + f;
          const sq = el('div', 'sq ' + ((f + r) % 2 === 0 ? 'dk' : 'lt'));
          sq.dataset.cell = cellName(c, levels);
          sq.dataset.index = String(c);
          sq.dataset.piece = '';
          squares[c] = sq;
          grid.appendChild(sq);
        }
      }
      grid.appendChild(el('div', 'fl'));
      for (const f of files) grid.appendChild(el('div', 'fl', FILES[f]));
      wrap.append(el('div', 'lcap', levels > 1 ? 'level ' + (l + 1) : 'board'), grid);
      host.appendChild(wrap);
    }
    built = levels + (flipped ? 'f' : '');
  }
  const targetsOf = (c) => (S ? S.legal.filter((m) => m[0] === c) : []);
  function drawBoards() {
    if (!S) return;
    if (built !== S.levels + (flipped ? 'f' : '')) buildBoards(S.levels);
    const placement = editing || S.board.split('');
    const tg = new Map();
    if (selected !== null && !editing) for (const m of targetsOf(selected)) tg.set(m[1], m[3]);
    for (let c = 0; c < squares.length; c++) {
      const sq = squares[c];
      const p = placement[c] === '.' ? '' : placement[c];
      if (sq.dataset.piece !== p) {
        sq.dataset.piece = p;
        sq.textContent = p ? glyph(p) : '';
      }
      sq.classList.toggle('pw', p !== '' && isWhite(p));
      sq.classList.toggle('pb', p !== '' && !isWhite(p));
      const last = !editing && S.last && (S.last[0] === c || S.last[1] === c);
      sq.classList.toggle('lm', !!last);
      sq.classList.toggle('chk', !editing && S.check === c);
      sq.classList.toggle('sel', selected === c && !editing);
      sq.classList.toggle('tgt', tg.has(c));
      sq.classList.toggle('cap', tg.has(c) && p !== '');
      sq.classList.toggle('xfer', tg.get(c) === 'transfer');
    }
  }
  function refuse(c, why) {
    const sq = squares[c];
    if (sq) {
      sq.classList.add('refused');
      setTimeout(() => sq.classList.remove('refused'), 600);
    }
    const st = $('status');
    st.dataset.refused = String(Number(st.dataset.refused || 0) + 1);
    st.dataset.refusedWhy = why;
    $('e-status').textContent = why;
  }

  // ---- picking and moving
  function pick(c) {
    selected = c;
    drawBoards();
  }
  function tryMove(from, to) {
    const cands = S.legal.filter((m) => m[0] === from && m[1] === to);
    selected = null;
    if (!cands.length) {
      drawBoards();
      refuse(to, `no legal move from ${cellName(from, S.levels)} to ${cellName(to, S.levels)}`);
      return;
    }
    if (cands.length === 1) {
      play(cands[0]);
      return;
    }
    // A promotion (or moves of several kinds between the same cells): ask which.
    const host = $('choices');
    host.textContent = '';
    for (const m of cands) {
      const b = el('button', '', m[2] ? glyph(S.turn === 'w' ? m[2].toUpperCase() : m[2]) + ' ' + m[4] : m[4] + (m[3] !== 'normal' ? ` (${m[3]})` : ''));
      b.type = 'button';
      b.dataset.san = m[4];
      b.addEventListener('click', () => {
        $('chooser').hidden = true;
        play(m);
      });
      host.appendChild(b);
    }
    $('chooser').hidden = false;
    drawBoards();
  }
  $('choose-cancel').addEventListener('click', () => {
    $('chooser').hidden = true;
  });
  function play(m) {
    send({ t: 'move', node: S.node, mv: coordOf(m, S.levels), kind: m[3] });
    drawBoards();
  }
  const cellAt = (x, y) => {
    const e = document.elementFromPoint(x, y);
    const sq = e && e.closest ? e.closest('.sq') : null;
    return sq ? Number(sq.dataset.index) : null;
  };
  let ghost = null;
  $('boards').addEventListener('pointerdown', (ev) => {
    const sq = ev.target.closest('.sq');
    if (!sq || !S || ev.button !== 0) return;
    ev.preventDefault();
    const c = Number(sq.dataset.index);
    if (editing) {
      editing[c] = editing[c] === editPiece ? '.' : editPiece;
      drawBoards();
      return;
    }
    if (selected !== null && targetsOf(selected).some((m) => m[1] === c)) {
      tryMove(selected, c);
      return;
    }
    const p = S.board[c];
    if (p !== '.' && isWhite(p) === (S.turn === 'w')) {
      if (!targetsOf(c).length) {
        selected = null;
        drawBoards();
        refuse(c, `the piece on ${cellName(c, S.levels)} has no legal move`);
        return;
      }
      pick(c);
      dragFrom = c;
      return;
    }
    if (selected !== null) {
      const from = selected;
      selected = null;
      drawBoards();
      refuse(c, `no legal move from ${cellName(from, S.levels)} to ${cellName(c, S.levels)}`);
    } else {
      refuse(c, p === '.' ? `nothing to move on ${cellName(c, S.levels)}` : `it is ${S.turn === 'w' ? 'White' : 'Black'}'s move`);
    }
  });
  document.addEventListener('pointermove', (ev) => {
    if (dragFrom === null || !S) return;
    if (!ghost) {
      ghost = el('div');
      ghost.id = 'ghost';
      ghost.textContent = glyph(S.board[dragFrom]);
      ghost.className = isWhite(S.board[dragFrom]) ? 'pw' : 'pb';
      ghost.style.fontSize = getComputedStyle(squares[dragFrom]).fontSize;
      ghost.style.color = isWhite(S.board[dragFrom]) ? '#fff' : '#111';
      ghost.style.textShadow = isWhite(S.board[dragFrom]) ? '-1px 0 #222,1px 0 #222,0 -1px #222,0 1px #222' : 'none';
      document.body.appendChild(ghost);
      squares[dragFrom].classList.add('drag');
    }
    ghost.style.left = ev.clientX + 'px';
    ghost.style.top = ev.clientY + 'px';
  });
  document.addEventListener('pointerup', (ev) => {
    if (dragFrom === null) return;
    const from = dragFrom;
    dragFrom = null;
    if (ghost) {
      ghost.remove();
      ghost = null;
      if (squares[from]) squares[from].classList.remove('drag');
    }
    const to = cellAt(ev.clientX, ev.clientY);
    if (to === null || to === from || !S) return;
    tryMove(from, to);
  });

  // ---- the move tree
  function renderTree() {
    const host = $('moves');
    host.textContent = '';
    const T = S.tree;
    const ply = new Array(T.length).fill(0);
    for (let i = 1; i < T.length; i++) ply[i] = ply[T[i].p] + 1;
    const onPath = new Set(S.path);
    const blackFirst = S.root_turn === 'b' ? 1 : 0;
    const emit = (box, id, force) => {
      const k = ply[id] - 1 + blackFirst;
      const num = S.root_fullmove + Math.floor(k / 2);
      if (k % 2 === 0) box.appendChild(el('span', 'mn', num + '.'));
      else if (force) box.appendChild(el('span', 'mn', num + '\u2026'));
      const s = el('span', 'mv' + (onPath.has(id) ? ' path' : '') + (id === S.node ? ' cur' : ''), T[id].s);
      s.dataset.node = String(id);
      s.dataset.ply = String(ply[id]);
      box.appendChild(s);
      box.appendChild(document.createTextNode(' '));
    };
    const line = (box, parent, start, force) => {
      let p = parent;
      let c = start;
      while (c !== undefined) {
        emit(box, c, force);
        force = false;
        const sibs = T[p].c;
        if (sibs[0] === c) {
          for (const v of sibs.slice(1)) {
            const vb = el('span', 'var');
            vb.appendChild(document.createTextNode('( '));
            line(vb, p, v, true);
            vb.appendChild(document.createTextNode(') '));
            box.appendChild(vb);
            force = true;
          }
        }
        p = c;
        c = T[c].c[0];
      }
    };
    line(host, 0, T[0].c[0], true);
    if (S.outcome) host.appendChild(el('b', '', ` ${S.outcome.result} (${S.outcome.reason})`));
    $('tree-size').textContent = `${T.length - 1} moves stored (at most ${S.cap - 1})`;
    const cur = host.querySelector('.cur');
    if (cur) {
      const top = cur.offsetTop - host.offsetTop;
      if (top < host.scrollTop || top > host.scrollTop + host.clientHeight - 20) host.scrollTop = top - host.clientHeight / 2;
    }
  }
  $('moves').addEventListener('click', (ev) => {
    const n = ev.target.dataset && ev.target.dataset.node;
    if (n !== undefined) send({ t: 'goto', node: Number(n) });
  });

  // ---- status, engine, analysis
  function showStatus() {
    const st = $('status');
    st.textContent = '';
    st.dataset.node = String(S.node);
    st.dataset.lfen = S.lfen;
    st.dataset.turn = S.turn;
    st.dataset.game = S.game || '';
    st.dataset.outcome = S.outcome ? S.outcome.result + ' ' + S.outcome.reason : '';
    const ply = S.path.length - 1;
    st.append(`${S.variant} \u00b7 ply ${ply} \u00b7 ${S.turn === 'w' ? 'White' : 'Black'} to move`);
    if (S.check !== null && S.check !== undefined) st.append(' \u00b7 check');
    if (S.outcome) {
      st.append(' \u00b7 ');
      st.appendChild(el('span', 'res', `${S.outcome.result} (${S.outcome.reason})`));
    }
    if (S.game) st.append(` \u00b7 game ${S.game}`);
    if (document.activeElement !== $('lfen')) $('lfen').value = S.lfen;
    const e = S.engine;
    let text = '';
    if (e) {
      text = `engine plays ${e.side === 'w' ? 'White' : 'Black'} at ${describeLimit(e.limit)}`;
      if (e.clock_ms !== null && e.clock_ms !== undefined) text += ` \u00b7 its clock ${(e.clock_ms / 1000).toFixed(1)} s`;
      if (e.thinking) text += ' \u00b7 thinking\u2026';
    }
    $('e-status').textContent = text;
    $('e-status').dataset.thinking = e && e.thinking ? '1' : '';
    const ab = $('b-analyse');
    ab.textContent = S.analysing ? 'stop' : 'go';
    ab.dataset.on = S.analysing ? '1' : '';
    $('multipv').value = String(S.multipv);
    $('variant').value = S.variant;
  }
  function describeLimit(l) {
    if (l.kind === 'clock') return `${l.value / 1000}+${l.inc / 1000} s`;
    if (l.kind === 'movetime') return `${l.value} ms a move`;
    return `${l.value} ${l.kind}`;
  }
  function evalBar(cp, text) {
    const v = cp === null ? 0 : Math.max(-1, Math.min(1, 2 / (1 + Math.exp(-cp / 250)) - 1));
    $('evalfill').style.height = 50 + 50 * v + '%';
    $('evaltext').textContent = text || '';
    $('evalbar').dataset.cp = cp === null ? '' : String(cp);
  }
  function showLines() {
    const host = $('lines');
    host.textContent = '';
    const have = lines && lines.node === S.node ? lines : null;
    host.dataset.node = String(S.node);
    host.dataset.count = have ? String(have.lines.length) : '0';
    host.dataset.done = have && have.done ? '1' : '';
    if (!have) {
      $('a-info').textContent = S.analysing ? 'searching\u2026' : '';
      if (!S.analysing) evalBar(null, '');
      return;
    }
    have.lines.forEach((l, k) => {
      const row = el('div', 'line');
      row.dataset.k = String(k + 1);
      row.append(el('span', 'sc', l.score), el('span', 'dp', `d${l.depth}/${l.seldepth}`));
      const ply0 = S.path.length - 1;
      const blackFirst = S.root_turn === 'b' ? 1 : 0;
      l.san.forEach((san, i) => {
        const kk = ply0 + i + blackFirst;
        const num = S.root_fullmove + Math.floor(kk / 2);
        if (kk % 2 === 0) row.append(`${num}. `);
        else if (i === 0) row.append(`${num}\u2026 `);
        const m = el('span', 'pm', san);
        m.dataset.i = String(i);
        m.dataset.uci = l.uci[i];
        m.title = 'play the line to here';
        m.addEventListener('click', () => send({ t: 'line', node: have.node, moves: l.uci.slice(0, i + 1) }));
        row.append(m, ' ');
      });
      host.appendChild(row);
    });
    const best = have.lines[0];
    if (best) {
      evalBar(best.cp, best.score);
      $('a-info').textContent = `depth ${best.depth} \u00b7 ${fmtNodes(best.nodes)} nodes \u00b7 ${fmtNodes(best.nps)} nodes/s` + (have.done ? ' \u00b7 done' : '');
    }
  }
  const fmtNodes = (n) => (n >= 1e6 ? (n / 1e6).toFixed(1) + 'M' : n >= 1e3 ? (n / 1e3).toFixed(1) + 'k' : String(n));
  for (let k = 1; k <= 5; k++) {
    const o = el('option', '', String(k));
    o.value = String(k);
    $('multipv').appendChild(o);
  }
  $('multipv').value = '3';
  $('b-analyse').addEventListener('click', () => {
    send({ t: 'analyse', on: !(S && S.analysing), multipv: Number($('multipv').value) });
  });
  $('multipv').addEventListener('change', () => {
    if (S && S.analysing) send({ t: 'analyse', on: true, multipv: Number($('multipv').value) });
  });
  $('e-kind').addEventListener('change', () => {
    const k = $('e-kind').value;
    $('e-inc').hidden = k !== 'clock';
    $('e-value').value = { nodes: 2000, depth: 6, movetime: 1000, clock: 60 }[k];
  });
  $('b-engine').addEventListener('click', () => {
    const side = $('e-side').value;
    const kind = $('e-kind').value;
    let value = Number($('e-value').value);
    let inc = 0;
    if (kind === 'clock') {
      value = Math.round(value * 1000);
      inc = Math.round(Number($('e-inc').value) * 1000);
    }
    send(side === 'none' ? { t: 'engine', side } : { t: 'engine', side, limit: { kind, value, inc } });
  });

  // ---- controls
  $('b-first').addEventListener('click', () => send({ t: 'first' }));
  $('b-back').addEventListener('click', () => send({ t: 'back' }));
  $('b-forward').addEventListener('click', () => send({ t: 'forward' }));
  $('b-last').addEventListener('click', () => send({ t: 'last' }));
  $('b-delete').addEventListener('click', () => S && S.node !== 0 && send({ t: 'delete', node: S.node }));
  $('b-promote').addEventListener('click', () => S && send({ t: 'promote', node: S.node }));
  $('b-flip').addEventListener('click', () => {
    flipped = !flipped;
    drawBoards();
  });
  $('b-new').addEventListener('click', () => send({ t: 'new', variant: $('variant').value }));
  $('variant').addEventListener('change', () => send({ t: 'new', variant: $('variant').value }));
  $('b-load').addEventListener('click', () => send({ t: 'new', variant: S ? S.variant : $('variant').value, lfen: $('lfen').value }));
  $('lfen').addEventListener('keydown', (ev) => {
    if (ev.key === 'Enter') $('b-load').click();
  });
  $('b-pgn').addEventListener('click', () => send({ t: 'pgn' }));
  document.addEventListener('keydown', (ev) => {
    const tag = ev.target.tagName;
    if (tag === 'INPUT' || tag === 'SELECT' || tag === 'TEXTAREA' || ev.altKey || ev.ctrlKey || ev.metaKey) return;
    const keys = { ArrowLeft: 'back', ArrowRight: 'forward', Home: 'first', End: 'last' };
    if (keys[ev.key]) {
      ev.preventDefault();
      send({ t: keys[ev.key] });
    } else if (ev.key === 'f') {
      $('b-flip').click();
    } else if (ev.key === 'Escape') {
      selected = null;
      drawBoards();
    }
  });

  // ---- the position editor
  function buildPalette() {
    const host = $('palette');
    host.textContent = '';
    for (const p of ['K', 'Q', 'R', 'B', 'N', 'P', 'k', 'q', 'r', 'b', 'n', 'p', '.']) {
      const b = el('div', 'pc' + (p !== '.' && isWhite(p) ? ' pw' : ''), p === '.' ? '\u2715' : glyph(p));
      b.dataset.piece = p;
      b.title = p === '.' ? 'remove pieces' : `put ${p}`;
      b.addEventListener('click', () => {
        editPiece = p;
        for (const x of host.children) x.classList.toggle('on', x.dataset.piece === p);
      });
      host.appendChild(b);
    }
    for (const x of host.children) x.classList.toggle('on', x.dataset.piece === editPiece);
  }
  function startEdit() {
    if (!S) return;
    editing = S.board.split('');
    selected = null;
    const rights = S.lfen.split(' ')[2] || '-';
    for (const r of 'KQkq') $('ed-' + r).checked = rights.includes(r);
    $('ed-turn').value = S.turn;
    $('editor').hidden = false;
    buildPalette();
    drawBoards();
  }
  function stopEdit() {
    editing = null;
    pendingSetup = false;
    $('editor').hidden = true;
    drawBoards();
  }
  $('b-edit').addEventListener('click', () => (editing ? stopEdit() : startEdit()));
  $('ed-cancel').addEventListener('click', stopEdit);
  $('ed-clear').addEventListener('click', () => {
    if (editing) editing = editing.map(() => '.');
    drawBoards();
  });
  $('ed-done').addEventListener('click', () => {
    const castling = [...'KQkq'].filter((r) => $('ed-' + r).checked).join('') || '-';
    pendingSetup = true;
    send({ t: 'setup', placement: editing.join(''), turn: $('ed-turn').value, castling });
  });

  // ---- games of the runs
  let gameRows = [];
  function buildGames() {
    const G = HELLO.games;
    $('games').hidden = G.length === 0;
    $('g-notes').textContent = HELLO.notes.join(' \u00b7 ');
    const filters = { v: $('f-variant'), r: $('f-result'), t: $('f-termination') };
    for (const [key, select] of Object.entries(filters)) {
      select.textContent = '';
      const counts = new Map();
      for (const g of G) counts.set(g[key], (counts.get(g[key]) || 0) + 1);
      const all = el('option', '', `all (${G.length})`);
      all.value = '';
      select.appendChild(all);
      for (const v of [...counts.keys()].sort()) {
        const o = el('option', '', `${v} (${counts.get(v)})`);
        o.value = v;
        select.appendChild(o);
      }
      select.onchange = renderGames;
    }
    $('f-id').oninput = renderGames;
    renderGames();
  }
  function renderGames() {
    const G = HELLO.games;
    const want = { v: $('f-variant').value, r: $('f-result').value, t: $('f-termination').value };
    const q = $('f-id').value.trim().toLowerCase();
    gameRows = G.filter((g) => (!want.v || g.v === want.v) && (!want.r || g.r === want.r) && (!want.t || g.t === want.t) && (!q || g.id.toLowerCase().includes(q)));
    const host = $('g-list');
    host.textContent = '';
    // The first 500 matches: a filter narrows a bigger list.
    for (const g of gameRows.slice(0, 500)) {
      const r = el('div', 'grow' + (S && S.game === g.id ? ' sel' : ''));
      r.dataset.game = g.id;
      r.title = `${g.id}: White ${g.w}, Black ${g.b}`;
      r.append(el('span', '', g.id), el('span', '', g.v), el('span', '', g.r), el('span', '', g.t), el('span', '', String(g.n)));
      r.addEventListener('click', () => send({ t: 'open', game: g.id, ply: 0 }));
      host.appendChild(r);
    }
    $('g-count').textContent = `${gameRows.length} of ${G.length}` + (gameRows.length > 500 ? ' (first 500 listed)' : '');
    host.dataset.count = String(gameRows.length);
  }
  function fromHash() {
    const h = new URLSearchParams(location.hash.slice(1));
    const id = h.get('game');
    if (id !== null) send({ t: 'open', game: id, ply: Number(h.get('ply') || 0) });
  }
  window.addEventListener('hashchange', fromHash);

  // ---- messages
  function onState(s) {
    const nodeChanged = !S || S.node !== s.node || S.lfen !== s.lfen;
    const gameChanged = !S || S.game !== s.game;
    S = s;
    if (nodeChanged) selected = null;
    if (pendingSetup) stopEdit();
    clearError();
    drawBoards();
    renderTree();
    showStatus();
    showLines();
    if (gameChanged && HELLO) renderGames();
    if (!$('chooser').hidden && nodeChanged) $('chooser').hidden = true;
    document.body.dataset.ready = '1';
  }
  function onMessage(ev) {
    let m;
    try {
      m = JSON.parse(ev.data);
    } catch (e) {
      showError('the server sent what is not JSON');
      return;
    }
    if (m.t === 'hello') {
      HELLO = m;
      const sel = $('variant');
      sel.textContent = '';
      for (const v of m.variants) {
        const o = el('option', '', `${v.name} (${v.levels} level${v.levels > 1 ? 's' : ''})`);
        o.value = v.name;
        sel.appendChild(o);
      }
      buildGames();
      if (location.hash) fromHash();
    } else if (m.t === 'state') {
      onState(m);
    } else if (m.t === 'lines') {
      if (S && m.node === S.node) {
        lines = m;
        showLines();
      }
    } else if (m.t === 'error') {
      pendingSetup = false;
      showError(m.message);
    } else if (m.t === 'pgn') {
      $('pgn').value = m.text;
      const a = $('pgn-save');
      if (a.href) URL.revokeObjectURL(a.href);
      a.href = URL.createObjectURL(new Blob([m.text], { type: 'application/x-chess-pgn' }));
      a.hidden = false;
    }
  }
  function connect() {
    ws = new WebSocket(`ws://${location.host}/ws`);
    ws.onopen = () => {
      $('conn').textContent = 'connected';
      $('conn').classList.add('up');
    };
    ws.onmessage = onMessage;
    ws.onclose = () => {
      $('conn').textContent = 'disconnected \u2013 reload the page to start again';
      $('conn').classList.remove('up');
    };
  }
  connect();
})();
