// The classroom page's script, part 1 of 9 (html.rs joins the parts in one function scope):
// the run's data, the engines' formulas and the grid's marks and geometry. The diagonal
// engine's owners come from the report's `diag_start_end` and `cell_proc`; the bands engine's
// from its bands of columns, and its fill is played stage by stage (band k computes batch s - k
// at stage s); the wave engine's from each score step's runs of diagonals k = j - i, a cell
// belonging to the step that first reached it. Everything is checked against the grid's marks;
// problems are listed by lcsPage.problems().
const data = JSON.parse(document.getElementById('run-data').textContent);
const m = data.rows;
const n = data.cols;
const P = data.ranks;
const bands = data.engine === 'bands' ? data.bands : null;
const wave = data.engine === 'wave' ? data.wave : null;
const solved = data.command === 'solve';
const edit = data.problem === 'edit';
const V = edit ? 'D' : wave ? 'E' : 'M';
const svg = document.querySelector('#figure svg');
svg.setAttribute('preserveAspectRatio', 'xMidYMin meet');
const $ = (id) => document.getElementById(id);
const problems = [];
document.body.classList.add('live');
if (bands) document.body.classList.add('bands');
if (wave) document.body.classList.add('wave');
// The recorded values, from each row's steps (+, 0, -) and the border before its first cell; a
// wave run's are its cells' costs (Infinity where no step reached).
const values = wave ? wave.costs.map((row) => row.map((c) => (c === null ? Infinity : c))) : data.value_rows ? data.value_rows.map((row, i) => {
  const out = new Int32Array(n);
  let v = edit ? i + 1 : 0;
  for (let j = 0; j < n; j++) {
    const c = row.charCodeAt(j);
    v += c === 43 ? 1 : c === 45 ? -1 : 0;
    out[j] = v;
  }
  return out;
}) : null;

// ---- The diagonal schedule's formulas, as the report names them.
const diagLen = (d) => Math.min(d + 1, m, m + n - 1 - d);
const firstRow = (d) => Math.max(0, d - n + 1);
const pos = (i, j) => Math.min(i, n - 1 - j);
function split(d) {
  const L = diagLen(d);
  const p = Math.min(P, L);
  const f = Math.floor(L / p);
  const r = L % p;
  return { L, p, c: r === 0 ? f : f + 1, f, r };
}
function diagStartEnd(d, k) {
  const { L, p, c, f, r } = split(d);
  if (k >= p) return [L, L];
  if (k < r) return [k * c, k * c + c];
  const s = r * c + (k - r) * f;
  return [s, s + f];
}
function cellProc(i, j) {
  const q = pos(i, j);
  const { c, f, r } = split(i + j);
  return q < c * r ? Math.floor(q / c) : Math.floor((q - r) / f);
}

// ---- The bands: owners by column, batches of rows, stages.
const active = bands ? bands.cols.length : 0;
const bandOf = (j) => bands.cols.findIndex(([a, b]) => j >= a && j < b);
const batchRows = (b) => [b * bands.batch, Math.min(m, (b + 1) * bands.batch)];
// ---- The wave's steps: the rank owning diagonal k at step t (-1: none), and each cell's.
const rankOf = (t, k) => {
  const st = wave && wave.steps[t];
  return st ? st.ranges.findIndex((r) => r !== null && k >= r[0] && k <= r[1]) : -1;
};
const cellOwner = wave ? values.map((row, i) => row.map((c, j) => (c === Infinity ? -1 : rankOf(c, j - i)))) : null;
const owner = (i, j) => (bands ? bandOf(j) : wave ? cellOwner[i][j] : cellProc(i, j));
// The fill unit a cell is computed in: its diagonal, its stage, or the score step that reached
// it (past the last unit: no step did).
const unitOfCell = (i, j) => (bands ? bandOf(j) + Math.floor(i / bands.batch) : wave ? Math.min(values[i][j], wave.units) : i + j);
// The unit of a boundary message: its cell's diagonal, the sender's stage for the batch, or
// the halo's step.
const unitOfEvent = (e) => (bands ? e.from + Math.floor(e.i / bands.batch) : wave ? e.step : e.diagonal);
const D = m === 0 ? 0 : bands ? bands.stages : wave ? wave.units : m + n - 1;
const unitName = bands ? 'stage' : wave ? 'step' : 'diagonal';

// ---- Labels.
const byteLabel = (b) => (b > 32 && b < 127 ? String.fromCharCode(b) : b.toString(16).padStart(2, '0'));
const quoted = (b) => (b > 32 && b < 127 ? "'" + String.fromCharCode(b) + "'" : '0x' + byteLabel(b));
const showBytes = (bytes) => bytes.map((b) => (b >= 32 && b < 127 ? String.fromCharCode(b) : '\\x' + byteLabel(b))).join('');
const rowsOf = (d, s, e) => {
  if (s >= e) return 'no cell';
  const a = firstRow(d) + s;
  const b = firstRow(d) + e - 1;
  return a === b ? 'row ' + a : 'rows ' + a + '\u2013' + b;
};
const esc = (t) => String(t).replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]);
const plural = (k, one, many) => k + ' ' + (k === 1 ? one : many);
const rankName = (k) => '<span class="rank-tag" style="background:var(--rank-' + (k % data.rank_colours) + ')">p' + k + '</span>';

// ---- The grid's geometry (from the picture's root): where cell (i, j) is, and which cell a
// point of the picture is in. A bands grid leaves a gap between bands, where its fences stand.
const geo = svg.dataset;
const gridX = Number(geo.gridX);
const gridY = Number(geo.gridY);
const cellW = Number(geo.cellW);
const cellH = Number(geo.cellH);
const gap = Number(geo.gap) || 0;
const blocksDetail = geo.detail === 'blocks';
const cellX = (j) => gridX + j * cellW + (bands ? bandOf(j) * gap : 0);
const cellY = (i) => gridY + i * cellH;
const gridBottom = cellY(m);
function cellAt(x, y) {
  const i = Math.floor((y - gridY) / cellH);
  if (!(i >= 0 && i < m)) return null;
  if (!bands) {
    const j = Math.floor((x - gridX) / cellW);
    return j >= 0 && j < n ? [i, j] : null;
  }
  for (let k = 0; k < active; k++) {
    const [a, b] = bands.cols[k];
    const j = a + Math.floor((x - cellX(a)) / cellW);
    if (j >= a && j < b) return [i, j];
  }
  return null;
}

// ---- The grid's marks, indexed by what they mean.
const num = (e, key) => Number(e.dataset[key]);
const unitKey = bands || wave ? 'unit' : 'd';
const perUnit = () => Array.from({ length: D }, () => []);
const cellMarks = perUnit();
const cellRect = new Map();
const cellText = new Map();
svg.querySelectorAll('.cell, .cell-text, .hatch').forEach((e) => {
  const i = num(e, 'i');
  const j = num(e, 'j');
  const u = unitOfCell(i, j);
  if (u < D) cellMarks[u].push(e);
  if (e.classList.contains('cell-text')) cellText.set(i * n + j, e);
  if (e.classList.contains('cell')) {
    cellRect.set(i * n + j, e);
    const drawn = e.hasAttribute('data-unreached') ? -1 : num(e, 'owner');
    if (drawn !== owner(i, j)) problems.push('cell (' + i + ', ' + j + ') owner ' + e.dataset.owner + ', the formulas say ' + owner(i, j));
  }
});
// A fence shows once both cells it stands between are computed: before, it would tell the
// owners of cells to come (the quiz hides it until then).
svg.querySelectorAll('.fence[data-side]').forEach((e) => {
  const [i, j] = [num(e, 'i'), num(e, 'j')];
  const u = Math.max(unitOfCell(i, j), e.dataset.side === 'down' ? unitOfCell(i + 1, j) : unitOfCell(i, j + 1));
  if (u < D) cellMarks[u].push(e);
});
// A wave's slides show with the cells of their step; its lanes, a row per rank and step.
svg.querySelectorAll('.slide').forEach((e) => cellMarks[num(e, 'unit')].push(e));
const laneRank = new Map();
svg.querySelectorAll('.lane-rank').forEach((e) => {
  laneRank.set(num(e, 'unit') + ',' + num(e, 'rank'), e);
  const t = num(e, 'unit');
  const r = wave.steps[t] ? wave.steps[t].ranges[num(e, 'rank')] : null;
  const drawn = e.hasAttribute('data-lo') ? e.dataset.lo + '..' + e.dataset.hi : 'none';
  if (drawn !== (r ? r[0] + '..' + r[1] : 'none')) problems.push('the lane of p' + e.dataset.rank + ' at step ' + t + ' says ' + drawn);
});
// A bands grid too fine to draw cell by cell: a block per band and batch.
const blockRect = new Map();
svg.querySelectorAll('.block').forEach((e) => {
  const k = num(e, 'rank');
  const b = num(e, 'batch');
  cellMarks[num(e, 'unit')].push(e);
  blockRect.set(k + ',' + b, e);
  if (e.dataset.cols !== bands.cols[k][0] + '..' + bands.cols[k][1]) problems.push('block of p' + k + ' holds columns ' + e.dataset.cols);
});
const byUnitMarks = (sel) => {
  const out = perUnit();
  svg.querySelectorAll(sel).forEach((e) => { const u = num(e, unitKey); if (u < D) out[u].push(e); });
  return out;
};
const arrows = byUnitMarks('.message, .message-halo');
const outlines = byUnitMarks(bands ? '.stage' : wave ? '.front, .lane' : '.diagonal');
const dLabels = bands || wave ? perUnit() : byUnitMarks('.diagonal-label, .diagonal-tick');
const spanMarks = bands ? byUnitMarks('.span, .carry') : perUnit();
const nowLine = svg.querySelector('.timeline .now');
const walk = data.walk;
const walkSteps = [];
svg.querySelectorAll('.walk-step').forEach((e) => { walkSteps[num(e, 't')] = e; });
const discs = new Map();
svg.querySelectorAll('.match').forEach((e) => discs.set(num(e, 't'), e));
const discTexts = new Map();
svg.querySelectorAll('.cell-text[data-disc]').forEach((e) => discTexts.set(num(e, 'i') * n + num(e, 'j'), e));
const hopMarks = new Map();
svg.querySelectorAll('.hop').forEach((e) => hopMarks.set(num(e, 't'), e));
const hopHalos = new Map();
svg.querySelectorAll('.hop-halo').forEach((e) => hopHalos.set(num(e, 't'), e));

const events = data.events;
const boundary = wave ? wave.halos : events.filter((e) => e.kind === 'boundary');
const control = events.filter((e) => e.kind === 'control');
const tracebackCount = events.filter((e) => e.kind === 'traceback').length;
if (svg.querySelectorAll('.message').length !== boundary.length) problems.push('arrows and boundary messages differ');
if (tracebackCount !== data.hops.length || hopMarks.size !== data.hops.length) problems.push('hops and traceback messages differ');
if (walk.length > 0 && walkSteps.length !== walk.length - 1) problems.push('walk steps and walk cells differ');
const byUnit = perUnit();
boundary.forEach((e) => byUnit[unitOfEvent(e)].push(e));
// The message that brought cell (a, b)'s value to rank k, if one did (a bands message carries a
// batch's carries, not a value: none).
const delivered = new Map();
if (!bands && !wave) boundary.forEach((e) => delivered.set(e.i * n + e.j, e));
// A wave's cells reached per step and rank.
const waveCells = wave ? Array.from({ length: D }, () => new Array(P).fill(0)) : null;
if (wave) cellOwner.forEach((row, i) => row.forEach((k, j) => { if (k >= 0) waveCells[values[i][j]][k]++; }));
// Cells computed per rank and unit.
function unitCells(u, k) {
  if (wave) return waveCells[u][k];
  if (!bands) {
    if (k >= Math.min(P, diagLen(u))) return 0;
    const [a, b] = diagStartEnd(u, k);
    return b - a;
  }
  const b = u - k;
  if (k >= active || b < 0 || b >= bands.batches) return 0;
  const [r0, r1] = batchRows(b);
  return (r1 - r0) * (bands.cols[k][1] - bands.cols[k][0]);
}
// The cells of a unit, by the formulas: a diagonal's from its top-right end, a stage's band by
// band (each band's first column first, where its carries come in).
function unitCellList(u) {
  const out = [];
  if (wave) {
    for (let i = 0; i < m; i++) for (let j = 0; j < n; j++) if (values[i][j] === u) out.push([i, j]);
    return out.sort((a, b) => (a[1] - a[0]) - (b[1] - b[0]));
  }
  if (!bands) {
    for (let q = 0; q < diagLen(u); q++) {
      const i = firstRow(u) + q;
      out.push([i, u - i]);
    }
    return out;
  }
  for (let k = 0; k < active; k++) {
    const b = u - k;
    if (b < 0 || b >= bands.batches) continue;
    const [r0, r1] = batchRows(b);
    const [c0, c1] = bands.cols[k];
    for (const j of [c0, c1 - 1]) for (let i = r0; i < r1; i++) out.push([i, j]);
  }
  return out;
}
