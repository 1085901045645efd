(function () {
  'use strict';
  var data = JSON.parse(document.getElementById('hrpplan-data').textContent);
  var canvas = document.getElementById('view');
  var ctx = canvas.getContext('2d');
  var slider = document.getElementById('slider');
  var playBtn = document.getElementById('play');
  var speedSel = document.getElementById('speed');
  var timeLbl = document.getElementById('time');
  var worstLbl = document.getElementById('worst');
  var F = data.frames;
  var nF = F.t.length;
  var links = data.links;
  var nL = links.length;
  var meshes = data.meshes || [];
  var meshLink = {};
  meshes.forEach(function (m) {
    if (m.link !== null) meshLink[m.link] = true;
    var r = 0;
    for (var i = 0; i < m.v.length; i += 3) r = Math.max(r, Math.sqrt(m.v[i] * m.v[i] + m.v[i + 1] * m.v[i + 1] + m.v[i + 2] * m.v[i + 2]));
    m.radius = r;
    m.w = new Float64Array(m.v.length);
  });
  var PALETTE = ['#4c78a8', '#54a24b', '#b279a2', '#9d755d', '#72b7b2', '#eeca3b', '#17becf', '#bcbd22'];
  var cam = {az: 0.6, el: 0.25, zoom: 1.0};
  var state = {time: 0, playing: false, last: null, speed: 1, drawn: 0, frame: 0, triangles: 0, hideMeshes: false};

  /* scene bounds over every frame and obstacle */
  var lo = [Infinity, Infinity, Infinity];
  var hi = [-Infinity, -Infinity, -Infinity];
  function grow(x, y, z, r) {
    var p = [x, y, z];
    for (var k = 0; k < 3; k++) {
      lo[k] = Math.min(lo[k], p[k] - r);
      hi[k] = Math.max(hi[k], p[k] + r);
    }
  }
  for (var f = 0; f < nF; f++) {
    var c = F.capsules[f];
    for (var l = 0; l < nL; l++) {
      grow(c[6 * l], c[6 * l + 1], c[6 * l + 2], links[l].radius);
      grow(c[6 * l + 3], c[6 * l + 4], c[6 * l + 5], links[l].radius);
    }
  }
  data.obstacles.forEach(function (o) {
    grow(o.p0[0], o.p0[1], o.p0[2], o.radius);
    grow(o.p1[0], o.p1[1], o.p1[2], o.radius);
  });
  meshes.forEach(function (m) {
    if (m.pose < 0) {
      for (var i = 0; i < m.v.length; i += 3) grow(m.v[i], m.v[i + 1], m.v[i + 2], 0);
      return;
    }
    for (var f = 0; f < nF; f++) {
      var P = F.poses[f], o = 12 * m.pose;
      grow(P[o + 9], P[o + 10], P[o + 11], m.radius);
    }
  });
  if (!(hi[0] >= lo[0])) { lo = [-1, -1, 0]; hi = [1, 1, 1]; }
  lo[2] = Math.min(lo[2], 0);
  var centre = [(lo[0] + hi[0]) / 2, (lo[1] + hi[1]) / 2, (lo[2] + hi[2]) / 2];
  var extent = Math.max(hi[0] - lo[0], hi[1] - lo[1], hi[2] - lo[2], 0.1);

  /* orthographic camera on a sphere around the scene centre; z up */
  function axes() {
    var ca = Math.cos(cam.az), sa = Math.sin(cam.az), ce = Math.cos(cam.el), se = Math.sin(cam.el);
    var fwd = [ce * ca, ce * sa, se];            /* from the centre towards the viewer */
    var right = [-sa, ca, 0];
    var up = [-se * ca, -se * sa, ce];
    return {fwd: fwd, right: right, up: up};
  }
  function project(ax, p) {
    var s = cam.zoom * 0.85 * Math.min(canvas.width, canvas.height) / extent;
    var d = [p[0] - centre[0], p[1] - centre[1], p[2] - centre[2]];
    return {
      x: canvas.width / 2 + s * (d[0] * ax.right[0] + d[1] * ax.right[1] + d[2] * ax.right[2]),
      y: canvas.height / 2 - s * (d[0] * ax.up[0] + d[1] * ax.up[1] + d[2] * ax.up[2]),
      z: d[0] * ax.fwd[0] + d[1] * ax.fwd[1] + d[2] * ax.fwd[2],
      s: s
    };
  }
  function shade(hex, f) {
    var n = parseInt(hex.slice(1), 16);
    var rgb = [(n >> 16) & 255, (n >> 8) & 255, n & 255].map(function (v) {
      return Math.round(f >= 1 ? v + (255 - v) * (f - 1) : v * f);
    });
    return 'rgb(' + rgb.join(',') + ')';
  }
  /* frame index and interpolation weight of a time */
  function locate(t) {
    var a = 0, b = nF - 1;
    if (t <= F.t[0]) return {i: 0, u: 0};
    if (t >= F.t[b]) return {i: b, u: 0};
    while (b - a > 1) {
      var m = (a + b) >> 1;
      if (F.t[m] <= t) a = m; else b = m;
    }
    return {i: a, u: (t - F.t[a]) / (F.t[b] - F.t[a])};
  }
  function point(c0, c1, u, k) {
    return [c0[k] + u * (c1[k] - c0[k]), c0[k + 1] + u * (c1[k + 1] - c0[k + 1]),
            c0[k + 2] + u * (c1[k + 2] - c0[k + 2])];
  }
  function capsule(ax, p0, p1, r, color, items) {
    var a = project(ax, p0), b = project(ax, p1);
    items.push({a: a, b: b, w: 2 * r * a.s, color: color, z: (a.z + b.z) / 2});
  }
  /* a mesh's front-facing triangles, flat-shaded by their normals; posed meshes move
     with their link (pose interpolated between frames like the capsules) */
  function meshItems(ax, m, f0, f1, u, color, items) {
    var v = m.v, w = m.w, t = m.t;
    if (m.pose >= 0) {
      var A = F.poses[f0], B = F.poses[f1], o = 12 * m.pose, T = [];
      for (var k = 0; k < 12; k++) T.push(A[o + k] + u * (B[o + k] - A[o + k]));
      for (var i = 0; i < v.length; i += 3) {
        for (var r = 0; r < 3; r++) w[i + r] = T[9 + r] + T[3 * r] * v[i] + T[3 * r + 1] * v[i + 1] + T[3 * r + 2] * v[i + 2];
      }
    } else {
      w.set(v);
    }
    var L = [ax.fwd[0] + 0.4 * ax.up[0] + 0.3 * ax.right[0], ax.fwd[1] + 0.4 * ax.up[1] + 0.3 * ax.right[1],
             ax.fwd[2] + 0.4 * ax.up[2] + 0.3 * ax.right[2]];
    var Ln = Math.sqrt(L[0] * L[0] + L[1] * L[1] + L[2] * L[2]);
    var P = [];
    for (var j = 0; j < w.length; j += 3) P.push(project(ax, [w[j], w[j + 1], w[j + 2]]));
    for (var q = 0; q < t.length; q += 3) {
      var a = 3 * t[q], b = 3 * t[q + 1], c = 3 * t[q + 2];
      var e1 = [w[b] - w[a], w[b + 1] - w[a + 1], w[b + 2] - w[a + 2]];
      var e2 = [w[c] - w[a], w[c + 1] - w[a + 1], w[c + 2] - w[a + 2]];
      var n = [e1[1] * e2[2] - e1[2] * e2[1], e1[2] * e2[0] - e1[0] * e2[2], e1[0] * e2[1] - e1[1] * e2[0]];
      var nn = Math.sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
      if (!(nn > 0)) continue;
      var facing = (n[0] * ax.fwd[0] + n[1] * ax.fwd[1] + n[2] * ax.fwd[2]) / nn;
      if (facing <= 0) continue;
      var lit = Math.max(0, (n[0] * L[0] + n[1] * L[1] + n[2] * L[2]) / (nn * Ln));
      var pa = P[t[q]], pb = P[t[q + 1]], pc = P[t[q + 2]];
      items.push({tri: [pa, pb, pc], color: shade(color, 0.45 + 0.75 * lit), z: (pa.z + pb.z + pc.z) / 3});
    }
  }
  function drawGrid(ax) {
    var step = Math.pow(10, Math.floor(Math.log10(extent)));
    if (extent / step < 3) step /= 2;
    var x0 = Math.floor((centre[0] - extent) / step) * step, y0 = Math.floor((centre[1] - extent) / step) * step;
    ctx.lineWidth = 1;
    ctx.strokeStyle = '#d8dde3';
    ctx.beginPath();
    for (var x = x0; x <= centre[0] + extent; x += step) {
      var a = project(ax, [x, y0, 0]), b = project(ax, [x, centre[1] + extent, 0]);
      ctx.moveTo(a.x, a.y); ctx.lineTo(b.x, b.y);
    }
    for (var y = y0; y <= centre[1] + extent; y += step) {
      var c = project(ax, [x0, y, 0]), d = project(ax, [centre[0] + extent, y, 0]);
      ctx.moveTo(c.x, c.y); ctx.lineTo(d.x, d.y);
    }
    ctx.stroke();
    /* world axes at the origin: x red, y green, z blue, 0.2 m */
    [[1, 0, 0, '#d62728'], [0, 1, 0, '#2ca02c'], [0, 0, 1, '#1f77b4']].forEach(function (e) {
      var o = project(ax, [0, 0, 0]), p = project(ax, [0.2 * e[0], 0.2 * e[1], 0.2 * e[2]]);
      ctx.strokeStyle = e[3];
      ctx.lineWidth = 2;
      ctx.beginPath(); ctx.moveTo(o.x, o.y); ctx.lineTo(p.x, p.y); ctx.stroke();
    });
  }
  function draw() {
    var ax = axes();
    var loc = locate(state.time);
    var i1 = Math.min(loc.i + 1, nF - 1);
    var c0 = F.capsules[loc.i], c1 = F.capsules[i1];
    var near = loc.u < 0.5 ? loc.i : i1;
    var worst = F.worst[near];
    var hot = {};
    if (worst) {
      var pr = data.pairs[worst[0]];
      hot[pr.a] = true;
      hot[pr.b] = true;
    }
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    ctx.fillStyle = '#f7f9fb';
    ctx.fillRect(0, 0, canvas.width, canvas.height);
    drawGrid(ax);
    var items = [];
    for (var l = 0; l < nL; l++) {
      if (meshLink[links[l].name]) continue;
      var col = hot[links[l].name] ? '#e31a1c' : PALETTE[links[l].color % PALETTE.length];
      capsule(ax, point(c0, c1, loc.u, 6 * l), point(c0, c1, loc.u, 6 * l + 3), links[l].radius, col, items);
    }
    var nCaps = items.length;
    if (!state.hideMeshes) {
      meshes.forEach(function (m) {
        var name = m.link !== null ? m.link : m.obstacle;
        var mc = hot[name] ? '#e31a1c' : m.color < 0 ? '#9aa5b1' : PALETTE[m.color % PALETTE.length];
        meshItems(ax, m, loc.i, i1, loc.u, mc, items);
      });
    }
    state.triangles = items.length - nCaps;
    data.obstacles.forEach(function (o) {
      var oc = hot[o.name] ? '#e31a1c' : '#34495e';
      if (o.mesh) return;
      if (!o.box) { capsule(ax, o.p0, o.p1, o.radius, oc, items); return; }
      var b = o.box, corner = function (i) {
        var l = [(i & 1 ? 1 : -1) * b[12], (i & 2 ? 1 : -1) * b[13], (i & 4 ? 1 : -1) * b[14]];
        return [0, 1, 2].map(function (r) { return b[r] + b[3 + 3 * r] * l[0] + b[4 + 3 * r] * l[1] + b[5 + 3 * r] * l[2]; });
      };
      [[0,1],[2,3],[4,5],[6,7],[0,2],[1,3],[4,6],[5,7],[0,4],[1,5],[2,6],[3,7]].forEach(function (e) {
        capsule(ax, corner(e[0]), corner(e[1]), 0.004, oc, items);
      });
    });
    items.sort(function (p, q) { return p.z - q.z; });
    ctx.lineCap = 'round';
    items.forEach(function (it) {
      if (it.tri) {
        ctx.fillStyle = it.color;
        ctx.strokeStyle = it.color;
        ctx.lineWidth = 0.7;
        ctx.beginPath();
        ctx.moveTo(it.tri[0].x, it.tri[0].y);
        ctx.lineTo(it.tri[1].x, it.tri[1].y);
        ctx.lineTo(it.tri[2].x, it.tri[2].y);
        ctx.closePath();
        ctx.fill();
        ctx.stroke();
        return;
      }
      var layers = [[it.w + 2, shade(it.color, 0.55), 0], [it.w, it.color, 0], [it.w * 0.4, shade(it.color, 1.45), it.w * 0.18]];
      layers.forEach(function (L) {
        ctx.strokeStyle = L[1];
        ctx.lineWidth = Math.max(L[0], 1);
        ctx.beginPath();
        ctx.moveTo(it.a.x - L[2], it.a.y - L[2]);
        ctx.lineTo(it.b.x - L[2] + 0.01, it.b.y - L[2]);
        ctx.stroke();
      });
    });
    state.drawn = items.length;
    /* the pair closest at this time: a line between its witness points */
    if (worst) {
      var pa = project(ax, [worst[2], worst[3], worst[4]]), pb = project(ax, [worst[5], worst[6], worst[7]]);
      ctx.strokeStyle = '#c00000';
      ctx.fillStyle = '#c00000';
      ctx.lineWidth = 2.5;
      ctx.beginPath(); ctx.moveTo(pa.x, pa.y); ctx.lineTo(pb.x, pb.y); ctx.stroke();
      [pa, pb].forEach(function (p) { ctx.beginPath(); ctx.arc(p.x, p.y, 4, 0, 2 * Math.PI); ctx.fill(); });
      var p2 = data.pairs[worst[0]];
      worstLbl.textContent = 'closest now: ' + p2.a + ' - ' + p2.b + ', ' + (1000 * worst[1]).toFixed(1) +
        ' mm (certified over the motion: ' + (p2.mcd_lower === null ? '?' : (1000 * p2.mcd_lower).toFixed(1) + ' mm') + ')';
    } else {
      worstLbl.textContent = 'no collision pairs';
    }
    state.frame = near;
    slider.value = String(near);
    timeLbl.textContent = state.time.toFixed(3) + ' s / ' + data.duration.toFixed(3) + ' s';
  }
  function setTime(t) {
    state.time = Math.min(Math.max(t, 0), data.duration);
    draw();
  }
  function tick(now) {
    if (!state.playing) { state.last = null; return; }
    if (state.last !== null) {
      var t = state.time + state.speed * (now - state.last) / 1000;
      if (t >= data.duration) { t = data.duration; state.playing = false; playBtn.textContent = 'Play'; }
      setTime(t);
    }
    state.last = now;
    if (state.playing) requestAnimationFrame(tick);
  }
  function play(on) {
    state.playing = on;
    playBtn.textContent = on ? 'Pause' : 'Play';
    if (on) {
      if (state.time >= data.duration) state.time = 0;
      state.last = null;
      requestAnimationFrame(tick);
    }
  }
  slider.max = String(nF - 1);
  slider.addEventListener('input', function () { play(false); setTime(F.t[Number(slider.value)]); });
  playBtn.addEventListener('click', function () { play(!state.playing); });
  speedSel.addEventListener('change', function () { state.speed = Number(speedSel.value); });
  document.addEventListener('keydown', function (e) { if (e.key === ' ') { e.preventDefault(); play(!state.playing); } });
  var drag = null;
  canvas.addEventListener('mousedown', function (e) { drag = {x: e.clientX, y: e.clientY}; });
  window.addEventListener('mouseup', function () { drag = null; });
  window.addEventListener('mousemove', function (e) {
    if (!drag) return;
    cam.az -= 0.01 * (e.clientX - drag.x);
    cam.el = Math.min(1.5, Math.max(-1.5, cam.el + 0.01 * (e.clientY - drag.y)));
    drag = {x: e.clientX, y: e.clientY};
    draw();
  });
  canvas.addEventListener('wheel', function (e) {
    e.preventDefault();
    cam.zoom = Math.min(20, Math.max(0.1, cam.zoom * Math.exp(-0.001 * e.deltaY)));
    draw();
  }, {passive: false});
  /* the page's state for scripts and tests: #frame=K or #t=SECONDS selects the start */
  window.hrpplanView = {
    frames: nF,
    setFrame: function (k) { play(false); setTime(F.t[Math.min(Math.max(k | 0, 0), nF - 1)]); return state.drawn; },
    state: state
  };
  /* ink: canvas pixels far from the background colour (grid lines excluded) */
  function pixels() { return ctx.getImageData(0, 0, canvas.width, canvas.height).data; }
  function ink(px) {
    var n = 0;
    for (var i = 0; i < px.length; i += 4) {
      if (Math.abs(px[i] - 247) > 40 || Math.abs(px[i + 1] - 249) > 40 || Math.abs(px[i + 2] - 251) > 40) n++;
    }
    return n;
  }
  function changed(a, b) {
    var n = 0;
    for (var i = 0; i < a.length; i += 4) {
      if (a[i] !== b[i] || a[i + 1] !== b[i + 1] || a[i + 2] !== b[i + 2]) n++;
    }
    return n;
  }
  /* #selftest: renders the first, middle and last frames through the slider's path and
     reports, in <pre id=selftest>, the ink of each and the pixels changed from the first */
  function selftest() {
    var ks = [0, nF >> 1, nF - 1], out = {frames: ks, drawn: [], ink: [], changed: [], triangles: []}, first = null;
    ks.forEach(function (k) {
      slider.value = String(k);
      slider.dispatchEvent(new Event('input'));
      var px = pixels();
      if (first === null) first = px;
      out.drawn.push(state.drawn);
      out.ink.push(ink(px));
      out.changed.push(changed(first, px));
      out.triangles.push(state.triangles);
    });
    /* the pixels the meshes make: frame 0 with and without them */
    slider.value = '0';
    slider.dispatchEvent(new Event('input'));
    var withMeshes = pixels();
    state.hideMeshes = true;
    draw();
    out.mesh_pixels = [changed(withMeshes, pixels())];
    state.hideMeshes = false;
    draw();
    var pre = document.createElement('pre');
    pre.id = 'selftest';
    pre.textContent = JSON.stringify(out);
    document.body.appendChild(pre);
  }
  var m = /^#(frame|t)=([0-9.]+)$/.exec(window.location.hash);
  if (m) setTime(m[1] === 'frame' ? F.t[Math.min(nF - 1, parseInt(m[2], 10))] : parseFloat(m[2]));
  else setTime(0);
  if (window.location.hash === '#selftest') selftest();
  document.body.setAttribute('data-rendered', String(state.drawn));
}());
