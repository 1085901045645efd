/* view.js — the playback of view.html, drawn by WebGL through three.js r111 (the global
   THREE, inlined before this script). The scene is built once: link capsules (a lathe of
   two hemispheres and a cylinder), link meshes and obstacle meshes as indexed
   BufferGeometry, boxes, sphere and capsule obstacles, the floor grid, the support
   polygons and the ZMP and CoM tracks; a frame only moves objects (matrices) and
   recolours the closest pair's links, it never rebuilds geometry. */
(function () {
  'use strict';
  var data = JSON.parse(document.getElementById('hrpplan-data').textContent);
  var canvas = document.getElementById('view');
  var plot = document.getElementById('plot');
  var pctx = plot.getContext('2d');
  var slider = document.getElementById('slider');
  var playBtn = document.getElementById('play');
  var speedSel = document.getElementById('speed');
  var meshBox = document.getElementById('showMeshes');
  var timeLbl = document.getElementById('time');
  var worstLbl = document.getElementById('worst');
  var F = data.frames;
  var nF = F.t.length;
  var links = data.links;
  var nL = links.length;
  var meshes = data.meshes || [];
  var support = data.support || [];
  var meshLink = {};
  meshes.forEach(function (m) {
    if (m.link !== null) meshLink[m.link] = true;
    var r = 0;
    for (var i = 0; i < m.v.length; i += 3) r = Math.max(r, Math.sqrt(m.v[i] * m.v[i] + m.v[i + 1] * m.v[i + 1] + m.v[i + 2] * m.v[i + 2]));
    m.radius = r;
  });
  var PALETTE = ['#4c78a8', '#54a24b', '#b279a2', '#9d755d', '#72b7b2', '#eeca3b', '#17becf', '#bcbd22'];
  var PLOT_COLORS = ['#d62728', '#1f77b4', '#2ca02c', '#9467bd', '#ff7f0e'];
  /* the closest pair's links turn red; an obstacle of it (often large) only pink */
  var HOT = '#e31a1c', HOT_OBSTACLE = '#f19c9c', OBSTACLE = '#34495e', MESH_OBSTACLE = '#9aa5b1', BACKGROUND = '#f7f9fb';
  var ZMP_COLOR = '#e67e22', COM_COLOR = '#6a3d9a', SUPPORT_COLOR = '#2e7d32';
  var state = {time: 0, playing: false, last: null, speed: 1, drawn: 0, frame: 0, triangles: 0,
               hideMeshes: false, webgl: false};

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
  function lerp3(c0, c1, u, k, out) {
    return out.set(c0[k] + u * (c1[k] - c0[k]), c0[k + 1] + u * (c1[k + 1] - c0[k + 1]),
                   c0[k + 2] + u * (c1[k + 2] - c0[k + 2]));
  }

  /* ---- the WebGL scene ------------------------------------------------------------ */
  /* the GPU's name, from a scratch context: a software renderer (SwiftShader, llvmpipe)
     pays four times for multisampling, so it gets none */
  function software() {
    var gl = document.createElement('canvas').getContext('webgl'), name = '';
    if (!gl) return false;
    name = String(gl.getParameter(gl.RENDERER));
    if (!/swiftshader|llvmpipe|softpipe|software/i.test(name) && gl.getExtension('WEBGL_debug_renderer_info')) {
      name = String(gl.getParameter(0x9246));   /* UNMASKED_RENDERER_WEBGL */
    }
    var lose = gl.getExtension('WEBGL_lose_context');
    if (lose) lose.loseContext();
    return /swiftshader|llvmpipe|softpipe|software/i.test(name);
  }
  var renderer = null;
  state.antialias = !software();
  try {
    renderer = new THREE.WebGLRenderer({canvas: canvas, antialias: state.antialias, preserveDrawingBuffer: true});
  } catch (e) {
    renderer = null;
  }
  var scene = new THREE.Scene();
  var camera = new THREE.PerspectiveCamera(30, canvas.width / canvas.height, extent / 200, extent * 100);
  camera.up.set(0, 0, 1);
  var cam = {az: 0.6, el: 0.25, dist: 1, target: new THREE.Vector3(centre[0], centre[1], centre[2])};
  function resetCamera() {
    cam.az = 0.6;
    cam.el = 0.25;
    cam.dist = 1.15 * extent / (2 * Math.tan(camera.fov * Math.PI / 360));
    cam.target.set(centre[0], centre[1], centre[2]);
  }
  resetCamera();
  function placeCamera() {
    var ce = Math.cos(cam.el);
    camera.position.set(cam.target.x + cam.dist * ce * Math.cos(cam.az), cam.target.y + cam.dist * ce * Math.sin(cam.az),
                        cam.target.z + cam.dist * Math.sin(cam.el));
    camera.lookAt(cam.target);
    camera.updateMatrixWorld();
  }
  scene.background = new THREE.Color(BACKGROUND);
  scene.add(new THREE.HemisphereLight(0xffffff, 0x667080, 0.55));
  var headlight = new THREE.DirectionalLight(0xffffff, 0.6);
  headlight.position.set(0.3, 0.4, 1);   /* above and to the right of the eye */
  camera.add(headlight);
  scene.add(camera);

  /* floor grid on z = 0 and world axes (x red, y green, z blue, 0.2 m) */
  (function () {
    var step = Math.pow(10, Math.floor(Math.log10(extent)));
    if (extent / step < 3) step /= 2;
    var n = 2 * Math.ceil(extent / step);
    var grid = new THREE.GridHelper(n * step, n, '#d8dde3', '#d8dde3');
    grid.rotation.x = Math.PI / 2;
    grid.position.set(Math.round(centre[0] / step) * step, Math.round(centre[1] / step) * step, 0);
    scene.add(grid);
    scene.add(new THREE.AxesHelper(0.2));
  }());

  /* a capsule of radius r and segment length len along y, centred at the origin: the
     profile of two hemispheres joined by a straight side, turned about the y axis */
  function capsuleGeometry(r, len) {
    var pts = [], N = 8, i, a;
    for (i = 0; i <= N; i++) {
      a = -Math.PI / 2 + (Math.PI / 2) * i / N;
      pts.push(new THREE.Vector2(r * Math.cos(a) + 1e-9, -len / 2 + r * Math.sin(a)));
    }
    for (i = 0; i <= N; i++) {
      a = (Math.PI / 2) * i / N;
      pts.push(new THREE.Vector2(r * Math.cos(a) + 1e-9, len / 2 + r * Math.sin(a)));
    }
    return new THREE.LatheBufferGeometry(pts, 20);
  }
  var Y = new THREE.Vector3(0, 1, 0);
  var va = new THREE.Vector3(), vb = new THREE.Vector3(), vd = new THREE.Vector3();
  /* places a capsule object (made for the length |p1 - p0|) between p0 and p1 */
  function placeCapsule(obj, p0, p1) {
    obj.position.addVectors(p0, p1).multiplyScalar(0.5);
    vd.subVectors(p1, p0);
    var len = vd.length();
    if (len > 1e-12) obj.quaternion.setFromUnitVectors(Y, vd.multiplyScalar(1 / len));
  }
  function material(color, opts) {
    var m = new THREE.MeshPhongMaterial({color: color, shininess: 30, specular: 0x222222});
    for (var k in opts) if (Object.prototype.hasOwnProperty.call(opts, k)) m[k] = opts[k];
    return m;
  }

  /* link capsules (links drawn as meshes are not drawn as capsules) */
  var caps = [];
  for (var li = 0; li < nL; li++) {
    if (meshLink[links[li].name]) continue;
    var c0 = F.capsules[0];
    va.set(c0[6 * li], c0[6 * li + 1], c0[6 * li + 2]);
    vb.set(c0[6 * li + 3], c0[6 * li + 4], c0[6 * li + 5]);
    var base = PALETTE[links[li].color % PALETTE.length];
    var obj = new THREE.Mesh(capsuleGeometry(links[li].radius, va.distanceTo(vb)), material(base, {side: THREE.DoubleSide}));
    obj.userData = {name: links[li].name, base: base, link: li};
    scene.add(obj);
    caps.push(obj);
  }

  /* meshes: indexed BufferGeometry in the link frame (posed by a matrix per frame) or
     in the world (static) */
  var meshObjs = [];
  meshes.forEach(function (m) {
    var g = new THREE.BufferGeometry();
    var nv = m.v.length / 3;
    g.setAttribute('position', new THREE.BufferAttribute(new Float32Array(m.v), 3));
    g.setIndex(new THREE.BufferAttribute(nv > 65535 ? new Uint32Array(m.t) : new Uint16Array(m.t), 1));
    g.computeVertexNormals();
    g.computeBoundingSphere();
    var name = m.link !== null ? m.link : m.obstacle;
    var base = m.color < 0 ? MESH_OBSTACLE : PALETTE[m.color % PALETTE.length];
    var obj = new THREE.Mesh(g, material(base, {flatShading: true}));
    obj.userData = {name: name, base: base, pose: m.pose, triangles: m.t.length / 3};
    obj.matrixAutoUpdate = false;
    scene.add(obj);
    meshObjs.push(obj);
  });

  /* obstacles: boxes (translucent, with their edges), spheres and capsules; mesh
     obstacles are among the meshes */
  var obstacleObjs = [];
  data.obstacles.forEach(function (o) {
    var obj;
    if (o.mesh) return;
    if (o.box) {
      var b = o.box;
      var g = new THREE.BoxBufferGeometry(2 * b[12], 2 * b[13], 2 * b[14]);
      obj = new THREE.Mesh(g, material(OBSTACLE, {transparent: true, opacity: 0.35, depthWrite: false}));
      obj.add(new THREE.LineSegments(new THREE.EdgesGeometry(g), new THREE.LineBasicMaterial({color: OBSTACLE})));
      obj.matrixAutoUpdate = false;
      obj.matrix.set(b[3], b[4], b[5], b[0], b[6], b[7], b[8], b[1], b[9], b[10], b[11], b[2], 0, 0, 0, 1);
      obj.matrixWorldNeedsUpdate = true;
    } else {
      va.fromArray(o.p0);
      vb.fromArray(o.p1);
      obj = new THREE.Mesh(capsuleGeometry(o.radius, va.distanceTo(vb)), material(OBSTACLE, {side: THREE.DoubleSide}));
      placeCapsule(obj, va, vb);
    }
    obj.userData = {name: o.name, base: OBSTACLE};
    scene.add(obj);
    obstacleObjs.push(obj);
  });

  /* the closest pair: a segment between its witness points and a ball on each, drawn
     over everything */
  var witnessMat = new THREE.MeshBasicMaterial({color: '#c00000', depthTest: false});
  var witness = new THREE.Group();
  var wr = 0.004 * extent;
  var wSeg = new THREE.Mesh(new THREE.CylinderBufferGeometry(0.4 * wr, 0.4 * wr, 1, 8), witnessMat);
  var wA = new THREE.Mesh(new THREE.SphereBufferGeometry(wr, 12, 8), witnessMat);
  var wB = new THREE.Mesh(new THREE.SphereBufferGeometry(wr, 12, 8), witnessMat);
  [wSeg, wA, wB].forEach(function (o) { o.renderOrder = 10; witness.add(o); });
  scene.add(witness);

  /* the floor: support polygons (the phase that holds is filled), the ZMP and the
     ground projection of the CoM, their tracks over the motion and where they are now */
  var FLOOR_Z = 0.001 * extent;
  var supportObjs = support.map(function (s) {
    var pts = [], i;
    for (i = 0; i < s.polygon.length; i += 2) pts.push(new THREE.Vector2(s.polygon[i], s.polygon[i + 1]));
    var grp = new THREE.Group();
    if (pts.length >= 3) {
      var fill = new THREE.Mesh(new THREE.ShapeBufferGeometry(new THREE.Shape(pts)),
        new THREE.MeshBasicMaterial({color: SUPPORT_COLOR, transparent: true, opacity: 0.18, depthWrite: false, side: THREE.DoubleSide}));
      grp.add(fill);
    }
    var lg = new THREE.BufferGeometry().setFromPoints(pts.map(function (p) { return new THREE.Vector3(p.x, p.y, 0); }));
    grp.add(new THREE.LineLoop(lg, new THREE.LineBasicMaterial({color: SUPPORT_COLOR})));
    grp.position.z = FLOOR_Z;
    grp.userData = {t0: s.t0, t1: s.t1};
    scene.add(grp);
    return grp;
  });
  /* a track: one line per run of non-null samples; f(sample) gives its point */
  function track(samples, f, color) {
    var run = [];
    function flush() {
      if (run.length >= 2) scene.add(new THREE.Line(new THREE.BufferGeometry().setFromPoints(run), new THREE.LineBasicMaterial({color: color})));
      run = [];
    }
    (samples || []).forEach(function (s) {
      if (s === null) { flush(); return; }
      run.push(f(s));
    });
    flush();
  }
  var hasZmp = F.zmp && F.zmp.some(function (z) { return z !== null; });
  var hasCom = F.com && F.com.some(function (z) { return z !== null; });
  track(hasZmp ? F.zmp : [], function (z) { return new THREE.Vector3(z[0], z[1], 2 * FLOOR_Z); }, ZMP_COLOR);
  track(hasCom ? F.com : [], function (z) { return new THREE.Vector3(z[0], z[1], 2 * FLOOR_Z); }, COM_COLOR);
  var zmpMark = new THREE.Mesh(new THREE.CircleBufferGeometry(0.006 * extent, 20), new THREE.MeshBasicMaterial({color: ZMP_COLOR, depthTest: false}));
  var comFloor = new THREE.Mesh(new THREE.RingBufferGeometry(0.004 * extent, 0.007 * extent, 20), new THREE.MeshBasicMaterial({color: COM_COLOR, depthTest: false}));
  var comBall = new THREE.Mesh(new THREE.SphereBufferGeometry(0.007 * extent, 12, 8), new THREE.MeshBasicMaterial({color: COM_COLOR, depthTest: false}));
  [zmpMark, comFloor, comBall].forEach(function (o) { o.renderOrder = 9; o.visible = false; scene.add(o); });
  if (hasZmp || hasCom || support.length) {
    var legend = document.createElement('div');
    legend.className = 'hint';
    legend.id = 'legend';
    legend.innerHTML = (support.length ? '<span class="legend" style="background:' + SUPPORT_COLOR + '"></span>support polygon &nbsp; ' : '') +
      (hasZmp ? '<span class="legend" style="background:' + ZMP_COLOR + '"></span>ZMP &nbsp; ' : '') +
      (hasCom ? '<span class="legend" style="background:' + COM_COLOR + '"></span>centre of mass (and its floor projection)' : '');
    worstLbl.parentNode.insertBefore(legend, worstLbl.nextSibling);
  }

  if (renderer) {
    state.webgl = true;
    renderer.setPixelRatio(window.devicePixelRatio || 1);
    renderer.setSize(canvas.width, canvas.height, false);
  } else {
    var msg = document.createElement('p');
    msg.id = 'nogl';
    msg.textContent = 'This browser gives the page no WebGL: the 3-D view is not drawn (the plot, the table and the slider work).';
    canvas.parentNode.insertBefore(msg, canvas);
  }

  /* ---- the clearance plot ------------------------------------------------------------ */
  var plotPairs = F.plot_pairs || [];
  var PL = {left: 58, right: 12, top: 10, bottom: 26};
  var plotBg = document.createElement('canvas'), plotY = null;
  plotBg.width = plot.width;
  plotBg.height = plot.height;
  function plotX(t) { return PL.left + (plot.width - PL.left - PL.right) * t / Math.max(data.duration, 1e-9); }
  /* the curves, drawn once on plotBg; a frame copies it and adds the cursor */
  function drawPlotBackground() {
    var bg = plotBg.getContext('2d');
    var w = plot.width, h = plot.height, k, s;
    bg.fillStyle = BACKGROUND;
    bg.fillRect(0, 0, w, h);
    bg.font = '12px system-ui, sans-serif';
    bg.fillStyle = '#1d2733';
    if (!plotPairs.length || !F.clearance) {
      bg.fillText('no collision pairs: no clearance to plot', PL.left, h / 2);
      return;
    }
    /* a logarithmic axis from below the smallest positive clearance (and eps) to the
       largest: the closest approach and the far part of the motion both stay readable;
       a distance at or below the floor (touching, penetrating) is drawn on the floor */
    var dpos = Infinity, dmax = -Infinity;
    for (s = 0; s < nF; s++) {
      for (k = 0; k < plotPairs.length; k++) {
        var d = F.clearance[s][k];
        if (d > 0) dpos = Math.min(dpos, d);
        dmax = Math.max(dmax, d);
      }
    }
    var lg0 = Math.log10(Math.max(1e-6, Math.min(dpos, data.eps > 0 ? data.eps : dpos, 1) / 2));
    var lg1 = Math.log10(Math.max(dmax, Math.pow(10, lg0) * 100) * 1.2);
    var y0 = h - PL.bottom, y1 = PL.top;
    plotY = function (d) { return y0 + (y1 - y0) * (Math.log10(Math.max(d, Math.pow(10, lg0))) - lg0) / (lg1 - lg0); };
    /* axes, ticks in mm (powers of ten) and s */
    bg.strokeStyle = '#8a96a3';
    bg.lineWidth = 1;
    bg.beginPath();
    bg.moveTo(PL.left, y1); bg.lineTo(PL.left, y0); bg.lineTo(w - PL.right, y0);
    bg.stroke();
    bg.textAlign = 'right';
    for (var e = Math.ceil(lg0); e <= lg1; e++) {
      var yy = plotY(Math.pow(10, e));
      bg.fillStyle = '#1d2733';
      bg.fillText(String(+(1000 * Math.pow(10, e)).toPrecision(1)), PL.left - 4, yy + 4);
      bg.strokeStyle = '#e3e7eb';
      bg.beginPath(); bg.moveTo(PL.left + 1, yy); bg.lineTo(w - PL.right, yy); bg.stroke();
    }
    bg.save();
    bg.translate(12, (y0 + y1) / 2);
    bg.rotate(-Math.PI / 2);
    bg.textAlign = 'center';
    bg.fillText('clearance [mm]', 0, 0);
    bg.restore();
    bg.textAlign = 'center';
    for (k = 0; k <= 5; k++) {
      var tt = data.duration * k / 5;
      bg.fillText(tt.toFixed(2) + (k === 5 ? ' s' : ''), plotX(tt), h - 8);
    }
    /* eps, dashed */
    bg.setLineDash([5, 4]);
    bg.strokeStyle = '#5b6875';
    bg.beginPath(); bg.moveTo(PL.left, plotY(data.eps)); bg.lineTo(w - PL.right, plotY(data.eps)); bg.stroke();
    bg.setLineDash([]);
    /* each pair's distance over the frames, and its certified lower bound dotted */
    bg.textAlign = 'left';
    plotPairs.forEach(function (pr, k) {
      var col = PLOT_COLORS[k % PLOT_COLORS.length], p = data.pairs[pr];
      bg.strokeStyle = col;
      bg.lineWidth = 1.6;
      bg.beginPath();
      for (var s = 0; s < nF; s++) {
        var x = plotX(F.t[s]), y = plotY(F.clearance[s][k]);
        if (s === 0) bg.moveTo(x, y); else bg.lineTo(x, y);
      }
      bg.stroke();
      if (p.mcd_lower !== null) {
        bg.setLineDash([1, 3]);
        bg.beginPath(); bg.moveTo(PL.left, plotY(p.mcd_lower)); bg.lineTo(w - PL.right, plotY(p.mcd_lower)); bg.stroke();
        bg.setLineDash([]);
      }
      bg.fillStyle = 'rgba(247, 249, 251, 0.85)';
      bg.fillRect(w - PL.right - 234, PL.top + 14 * k, 232, 14);
      bg.fillStyle = col;
      bg.fillText(p.a + ' - ' + p.b, w - PL.right - 230, PL.top + 11 + 14 * k);
    });
    bg.fillStyle = '#5b6875';
    bg.fillText('dashed: eps; dotted: certified lower bound (log scale)', PL.left + 8, PL.top + 12);
  }
  function drawPlot(near) {
    pctx.drawImage(plotBg, 0, 0);
    if (plotY === null) return;
    var x = plotX(state.time);
    pctx.strokeStyle = '#1d2733';
    pctx.lineWidth = 1;
    pctx.beginPath(); pctx.moveTo(x, PL.top); pctx.lineTo(x, plot.height - PL.bottom); pctx.stroke();
    plotPairs.forEach(function (pr, k) {
      pctx.fillStyle = PLOT_COLORS[k % PLOT_COLORS.length];
      pctx.beginPath(); pctx.arc(x, plotY(F.clearance[near][k]), 3.5, 0, 2 * Math.PI); pctx.fill();
    });
  }

  /* ---- one frame ---------------------------------------------------------------------- */
  var M = new THREE.Matrix4();
  function draw() {
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
    caps.forEach(function (obj) {
      var l = obj.userData.link;
      placeCapsule(obj, lerp3(c0, c1, loc.u, 6 * l, va), lerp3(c0, c1, loc.u, 6 * l + 3, vb));
      obj.material.color.set(hot[obj.userData.name] ? HOT : obj.userData.base);
    });
    /* posed meshes: the link's pose interpolated between frames, as the capsules */
    var A = F.poses[loc.i], B = F.poses[i1], tris = 0;
    meshObjs.forEach(function (obj) {
      var o = 12 * obj.userData.pose, u = loc.u;
      obj.visible = !state.hideMeshes;
      if (obj.visible) tris += obj.userData.triangles;
      obj.material.color.set(hot[obj.userData.name] ? (obj.userData.pose < 0 ? HOT_OBSTACLE : HOT) : obj.userData.base);
      if (obj.userData.pose < 0) {
        obj.matrix.identity();
      } else {
        var T = [];
        for (var k = 0; k < 12; k++) T.push(A[o + k] + u * (B[o + k] - A[o + k]));
        obj.matrix.set(T[0], T[1], T[2], T[9], T[3], T[4], T[5], T[10], T[6], T[7], T[8], T[11], 0, 0, 0, 1);
      }
      obj.matrixWorldNeedsUpdate = true;
    });
    state.triangles = tris;
    obstacleObjs.forEach(function (obj) {
      obj.material.color.set(hot[obj.userData.name] ? HOT_OBSTACLE : obj.userData.base);
    });
    /* the closest pair */
    witness.visible = !!worst;
    if (worst) {
      va.set(worst[2], worst[3], worst[4]);
      vb.set(worst[5], worst[6], worst[7]);
      wA.position.copy(va);
      wB.position.copy(vb);
      var d = va.distanceTo(vb);
      wSeg.visible = d > 1e-9;
      placeCapsule(wSeg, va, vb);
      wSeg.scale.set(1, Math.max(d, 1e-9), 1);
      var p2 = data.pairs[worst[0]];
      worstLbl.textContent = 'closest now: ' + p2.a + ' - ' + p2.b + ', ' + (1000 * worst[1]).toFixed(1) +
        ' mm (certified over the motion: ' + (p2.mcd_lower === null ? '?' : (1000 * p2.mcd_lower).toFixed(1) + ' mm') + ')';
    } else {
      worstLbl.textContent = 'no collision pairs';
    }
    /* the floor: the phase that holds now, the ZMP and the CoM */
    supportObjs.forEach(function (g) { g.visible = state.time >= g.userData.t0 && state.time <= g.userData.t1; });
    var z = hasZmp ? F.zmp[near] : null, cm = hasCom ? F.com[near] : null;
    zmpMark.visible = z !== null;
    if (z !== null) zmpMark.position.set(z[0], z[1], 3 * FLOOR_Z);
    comFloor.visible = comBall.visible = cm !== null;
    if (cm !== null) {
      comFloor.position.set(cm[0], cm[1], 3 * FLOOR_Z);
      comBall.position.set(cm[0], cm[1], cm[2]);
    }
    state.frame = near;
    slider.value = String(near);
    timeLbl.textContent = state.time.toFixed(3) + ' s / ' + data.duration.toFixed(3) + ' s';
    drawPlot(near);
    render();
  }
  function render() {
    if (!renderer) { state.drawn = 0; return; }
    placeCamera();
    renderer.render(scene, camera);
    state.drawn = renderer.info.render.calls;
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

  /* ---- controls: slider, play, speed, meshes; orbit, pan and zoom on the canvas ------- */
  slider.max = String(nF - 1);
  slider.addEventListener('input', function () { play(false); setTime(F.t[Number(slider.value)]); });
  playBtn.addEventListener('click', function () { play(!state.playing); });
  speedSel.addEventListener('change', function () { state.speed = Number(speedSel.value); });
  meshBox.parentNode.style.display = meshes.length ? '' : 'none';
  meshBox.addEventListener('change', function () { state.hideMeshes = !meshBox.checked; draw(); });
  document.addEventListener('keydown', function (e) { if (e.key === ' ') { e.preventDefault(); play(!state.playing); } });
  var drag = null;
  canvas.addEventListener('contextmenu', function (e) { e.preventDefault(); });
  canvas.addEventListener('mousedown', function (e) {
    drag = {x: e.clientX, y: e.clientY, pan: e.button === 2 || e.shiftKey};
    e.preventDefault();
  });
  window.addEventListener('mouseup', function () { drag = null; });
  window.addEventListener('mousemove', function (e) {
    if (!drag) return;
    var dx = e.clientX - drag.x, dy = e.clientY - drag.y;
    if (drag.pan) {
      /* move the target in the view plane, as far as the pointer moved at its depth */
      var s = 2 * cam.dist * Math.tan(camera.fov * Math.PI / 360) / canvas.clientHeight;
      var right = new THREE.Vector3().setFromMatrixColumn(camera.matrixWorld, 0);
      var up = new THREE.Vector3().setFromMatrixColumn(camera.matrixWorld, 1);
      cam.target.addScaledVector(right, -dx * s).addScaledVector(up, dy * s);
    } else {
      cam.az -= 0.01 * dx;
      cam.el = Math.min(1.5, Math.max(-1.5, cam.el + 0.01 * dy));
    }
    drag.x = e.clientX;
    drag.y = e.clientY;
    render();
  });
  canvas.addEventListener('wheel', function (e) {
    e.preventDefault();
    cam.dist = Math.min(50 * extent, Math.max(0.02 * extent, cam.dist * Math.exp(0.001 * e.deltaY)));
    render();
  }, {passive: false});
  canvas.addEventListener('dblclick', function () { resetCamera(); render(); });
  /* the plot: a click or drag sets the time */
  var plotDrag = false;
  function plotSeek(e) {
    var r = plot.getBoundingClientRect();
    var x = (e.clientX - r.left) * plot.width / Math.max(r.width, 1);
    play(false);
    setTime(data.duration * (x - PL.left) / (plot.width - PL.left - PL.right));
  }
  plot.addEventListener('mousedown', function (e) { plotDrag = true; plotSeek(e); });
  window.addEventListener('mouseup', function () { plotDrag = false; });
  plot.addEventListener('mousemove', function (e) { if (plotDrag) plotSeek(e); });

  /* the page's state for scripts and tests: #frame=K or #t=SECONDS selects the start */
  window.hrpplanView = {
    frames: nF,
    setFrame: function (k) { play(false); setTime(F.t[Math.min(Math.max(k | 0, 0), nF - 1)]); return state.drawn; },
    state: state,
    camera: cam,
    render: render
  };

  /* ---- test hooks ------------------------------------------------------------------- */
  /* the drawing buffer (preserveDrawingBuffer keeps it after the frame) */
  function pixels() {
    if (!renderer) return new Uint8Array(4);
    var gl = renderer.getContext();
    var px = new Uint8Array(gl.drawingBufferWidth * gl.drawingBufferHeight * 4);
    gl.readPixels(0, 0, gl.drawingBufferWidth, gl.drawingBufferHeight, gl.RGBA, gl.UNSIGNED_BYTE, px);
    return px;
  }
  /* ink: pixels far from the background colour (the light grid lines excluded) */
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
  function report(id, out) {
    var pre = document.createElement('pre');
    pre.id = id;
    pre.textContent = JSON.stringify(out);
    document.body.appendChild(pre);
  }
  /* #selftest: renders the first, middle and last frames through the slider's path and
     reports, in <pre id=selftest>, the draw calls and ink of each, the pixels changed
     from the first, the mesh triangles drawn, the pixels the meshes make (frame 0 with
     and without them) and the ink of the clearance plot */
  function selftest() {
    var ks = [0, nF >> 1, nF - 1], first = null;
    var out = {webgl: state.webgl, frames: ks, drawn: [], ink: [], changed: [], triangles: []};
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
    slider.value = '0';
    slider.dispatchEvent(new Event('input'));
    var withMeshes = pixels();
    state.hideMeshes = true;
    draw();
    out.mesh_pixels = [changed(withMeshes, pixels())];
    state.hideMeshes = false;
    draw();
    out.plot_ink = [ink(pctx.getImageData(0, 0, plot.width, plot.height).data)];
    /* the mouse: a drag on the canvas turns the view, a right-drag pans it, the wheel
       zooms (pixels changed by each); a click in the middle of the plot seeks to the
       middle of the motion (time in ms) */
    var r = canvas.getBoundingClientRect(), x = r.left + r.width / 2, y = r.top + r.height / 2;
    function mouse(target, type, dx, button) {
      target.dispatchEvent(new MouseEvent(type, {clientX: x + dx, clientY: y, button: button || 0, bubbles: true}));
    }
    var before = pixels();
    mouse(canvas, 'mousedown', 0); mouse(canvas, 'mousemove', 60); mouse(canvas, 'mouseup', 60);
    var turned = pixels();
    mouse(canvas, 'mousedown', 0, 2); mouse(canvas, 'mousemove', 60, 2); mouse(canvas, 'mouseup', 60, 2);
    var panned = pixels();
    canvas.dispatchEvent(new WheelEvent('wheel', {deltaY: -300, clientX: x, clientY: y, bubbles: true, cancelable: true}));
    out.mouse_changed = [changed(before, turned), changed(turned, panned), changed(panned, pixels())];
    resetCamera();
    var pr = plot.getBoundingClientRect();
    var px = pr.left + (PL.left + (plot.width - PL.left - PL.right) / 2) * pr.width / plot.width;
    plot.dispatchEvent(new MouseEvent('mousedown', {clientX: px, clientY: pr.top + pr.height / 2, bubbles: true}));
    window.dispatchEvent(new MouseEvent('mouseup', {bubbles: true}));
    out.plot_seek_ms = [Math.round(1000 * state.time), Math.round(1000 * data.duration / 2)];
    report('selftest', out);
  }
  /* #bench: renders frames back to back for 2 s (the motion advancing and the camera
     turning each frame), each one waited for by reading a pixel back, and reports in
     <pre id=bench> the frames, the seconds and the frames per second, with the
     triangles of one frame; five frames before the clock starts warm it up. It also
     splits a frame's time: page_ms, the page's own work (draw(): poses, colours, the
     plot, the labels, and handing the frame to WebGL), and raster_ms, the wait for the
     pixels (WebGL's rasterisation, in the GPU process: on SwiftShader the CPU, on
     hardware the GPU). 1000 / page_ms bounds the frame rate whatever renders. */
  function bench() {
    var gl = renderer ? renderer.getContext() : null, px = new Uint8Array(4);
    var n = 0, t0, t1, w, tp = 0, tr = 0;
    /* warm up: the first frames compile the shaders */
    for (w = 0; gl && w < 5; w++) {
      draw();
      gl.readPixels(0, 0, 1, 1, gl.RGBA, gl.UNSIGNED_BYTE, px);
    }
    t0 = t1 = performance.now();
    while (gl && t1 - t0 < 2000) {
      state.time = data.duration * ((n * 0.01) % 1);
      cam.az += 0.01;
      var ta = performance.now();
      draw();
      var tb = performance.now();
      gl.readPixels(0, 0, 1, 1, gl.RGBA, gl.UNSIGNED_BYTE, px);
      n++;
      t1 = performance.now();
      tp += tb - ta;
      tr += t1 - tb;
    }
    var s = (t1 - t0) / 1000;
    report('bench', {antialias: state.antialias, frames: [n], seconds: [+s.toFixed(3)], fps: [+(n / Math.max(s, 1e-9)).toFixed(1)],
                     page_ms: [+(tp / Math.max(n, 1)).toFixed(2)], raster_ms: [+(tr / Math.max(n, 1)).toFixed(2)],
                     triangles: [renderer ? renderer.info.render.triangles : 0], mesh_triangles: [state.triangles]});
  }
  drawPlotBackground();
  var m = /^#(frame|t)=([0-9.]+)$/.exec(window.location.hash);
  if (m) setTime(m[1] === 'frame' ? F.t[Math.min(nF - 1, parseInt(m[2], 10))] : parseFloat(m[2]));
  else setTime(0);
  if (window.location.hash === '#selftest') selftest();
  if (window.location.hash === '#bench') bench();
  document.body.setAttribute('data-rendered', String(state.drawn));
}());
