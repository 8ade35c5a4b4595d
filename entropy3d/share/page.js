// entropy3d share: draws the table, the miniatures and a replay's actions with three.js (the
// global THREE). All data comes from the JSON block written by entropy3d/share; units are table
// inches (x right, y away, z up), headings degrees counter-clockwise from +x, times seconds.
(function () {
  "use strict";
  const data = JSON.parse(document.getElementById("entropy3d-data").textContent);
  const steps = data.steps;
  const SUN = new THREE.Vector3(0.45, -0.35, 0.82).normalize();
  const HOLD_S = 1.5;  // pause after each action while playing, to read its words
  const TEMPLATE_COLOURS = { tight: 0xff6650, medium: 0xffcc33, wide: 0x66e6ff };

  // ---- meshes --------------------------------------------------------------------------------
  function bytes(b64) {
    const text = atob(b64), out = new Uint8Array(text.length);
    for (let i = 0; i < text.length; i++) out[i] = text.charCodeAt(i);
    return out.buffer;
  }
  function geometry(packed) {
    const quantised = new Int16Array(bytes(packed.positions));
    const positions = new Float32Array(quantised.length);
    for (let i = 0; i < quantised.length; i++) positions[i] = quantised[i] * data.q;
    const shape = new THREE.BufferGeometry();
    shape.setAttribute("position", new THREE.BufferAttribute(positions, 3));
    const indices = packed.wide ? new Uint32Array(bytes(packed.indices)) : new Uint16Array(bytes(packed.indices));
    shape.setIndex(new THREE.BufferAttribute(indices, 1));
    shape.computeBoundingSphere();
    return shape;
  }
  function material(colour, extra) {
    return new THREE.MeshStandardMaterial(Object.assign({ color: colour, flatShading: true, roughness: 0.85,
                                                          metalness: 0.0 }, extra || {}));
  }

  const scene = new THREE.Scene();
  scene.background = new THREE.Color(0x2a2f36);
  scene.add(new THREE.HemisphereLight(0xdde6ff, 0x3a3228, 0.75));
  const sun = new THREE.DirectionalLight(0xffffff, 0.75);
  sun.position.copy(SUN).multiplyScalar(100);
  scene.add(sun);

  const table = data.table;
  for (const layer of table.ground) {  // table-top layers a hair apart: drawn in order, offset in depth
    const mesh = new THREE.Mesh(geometry(layer.mesh), material(layer.colour, {
      polygonOffset: true, polygonOffsetFactor: -layer.layer, polygonOffsetUnits: -4 * layer.layer }));
    mesh.renderOrder = layer.layer;
    scene.add(mesh);
  }
  for (const solid of table.solids) scene.add(new THREE.Mesh(geometry(solid.mesh), material(solid.colour)));
  const CLIFF_BAND = 0.4;  // a red warning band this wide (inches) just inside each cliff edge
  for (const edge of table.cliffs) {
    const w = table.width, d = table.depth, b = CLIFF_BAND;
    const [x0, y0, x1, y1] = { south: [0, 0, w, b], north: [0, d - b, w, d], west: [0, 0, b, d], east: [w - b, 0, w, d] }[edge];
    const band = new THREE.Mesh(new THREE.PlaneGeometry(x1 - x0, y1 - y0), new THREE.MeshBasicMaterial({
      color: 0xc8281e, polygonOffset: true, polygonOffsetFactor: -4, polygonOffsetUnits: -16 }));
    band.position.set((x0 + x1) / 2, (y0 + y1) / 2, 0.03);
    band.renderOrder = 4;
    scene.add(band);
  }
  const scenery = {};
  for (const piece of table.destructibles) {
    const pivot = new THREE.Group();  // turns about the piece's centre (EC-DEST-4 moves)
    pivot.position.set(piece.centre[0], piece.centre[1], 0);
    const mesh = new THREE.Mesh(geometry(piece.mesh), material(piece.colour));
    mesh.position.set(-piece.centre[0], -piece.centre[1], 0);
    pivot.add(mesh);
    scene.add(pivot);
    scenery[piece.id] = { pivot: pivot, centre: piece.centre };
  }

  // ---- miniatures ----------------------------------------------------------------------------
  const miniatures = {}, bikeShapes = {}, baseShapes = {};
  const view = document.getElementById("view");
  for (const model of data.miniatures.models) {
    const group = new THREE.Group();
    const gang = new THREE.Color(model.colour);
    baseShapes[model.base] = baseShapes[model.base] || geometry(data.miniatures.bases[model.base]);
    group.add(new THREE.Mesh(baseShapes[model.base], material(gang.clone().multiplyScalar(0.4))));
    for (const [k, part] of data.miniatures.bikes[model.bike].entries()) {
      const key = model.bike + "/" + k;
      bikeShapes[key] = bikeShapes[key] || geometry(part.mesh);
      group.add(new THREE.Mesh(bikeShapes[key], material(part.colour === null ? gang : part.colour)));
    }
    scene.add(group);
    const tag = document.createElement("div");
    tag.className = "tag";
    tag.textContent = model.name;
    // the name in the gang's colour lightened halfway to white (Hades' dark red on the dark tag
    // was hard to read), the gang's own colour as the tag's edge
    const light = model.colour.match(/[0-9a-f]{2}/gi).map(h => Math.round(parseInt(h, 16) * 0.5 + 127.5));
    tag.style.color = "rgb(" + light.join(", ") + ")";
    tag.style.borderLeft = "3px solid " + model.colour;
    view.appendChild(tag);
    miniatures[model.id] = { group: group, tag: tag };
  }

  // ---- camera: orbit about a target, z up ----------------------------------------------------
  const renderer = new THREE.WebGLRenderer({ antialias: true, preserveDrawingBuffer: true });
  renderer.setPixelRatio(window.devicePixelRatio || 1);
  view.appendChild(renderer.domElement);
  const camera = new THREE.PerspectiveCamera(40, 1, 0.5, 2000);
  camera.up.set(0, 0, 1);
  const size = Math.max(table.width, table.depth);
  // from the south, the table's near edge clear of the bar at the bottom of the page
  const home = { target: new THREE.Vector3(table.width / 2, 0.42 * table.depth, 0), distance: 1.5 * size,
                 yaw: 0, pitch: 50 };
  const orbit = { target: home.target.clone(), distance: home.distance, yaw: home.yaw, pitch: home.pitch };
  let saved = null;  // the view to go back to when leaving the top-down view

  function placeCamera() {
    const yaw = THREE.MathUtils.degToRad(orbit.yaw), pitch = THREE.MathUtils.degToRad(orbit.pitch);
    camera.position.set(Math.sin(yaw) * Math.cos(pitch), -Math.cos(yaw) * Math.cos(pitch), Math.sin(pitch))
      .multiplyScalar(orbit.distance).add(orbit.target);
    camera.lookAt(orbit.target);
    redraw();
  }
  function topDown() {
    if (saved) { Object.assign(orbit, saved); saved = null; placeCamera(); return; }
    saved = { target: orbit.target.clone(), distance: orbit.distance, yaw: orbit.yaw, pitch: orbit.pitch };
    // fit the whole table top, with a margin, in the band between the title and the bar
    const tan = Math.tan(THREE.MathUtils.degToRad(camera.fov / 2));
    const height = Math.max(1, view.clientHeight);
    const above = Math.min(document.getElementById("top").getBoundingClientRect().bottom, height / 3);
    const below = Math.max(Math.min(document.getElementById("bar").getBoundingClientRect().top, height),
                           2 * height / 3);
    const band = below - above;
    const fit = 1.1 * Math.max(table.depth * height / band, table.width / camera.aspect) / (2 * tan) + table.top;
    const inchesPerPixel = 2 * tan * (fit - table.top) / height;
    const north = ((above + below) / 2 - height / 2) * inchesPerPixel;  // the band's middle, not the view's
    Object.assign(orbit, { target: new THREE.Vector3(table.width / 2, table.depth / 2 + north, 0), distance: fit,
                           yaw: 0, pitch: 89.9 });
    placeCamera();
  }
  function pan(dx, dy) {
    const scale = orbit.distance * 2 * Math.tan(THREE.MathUtils.degToRad(camera.fov / 2)) / view.clientHeight;
    const right = new THREE.Vector3().setFromMatrixColumn(camera.matrixWorld, 0);
    const ahead = new THREE.Vector3().crossVectors(camera.up, right).normalize();
    orbit.target.addScaledVector(right, -dx * scale).addScaledVector(ahead, dy * scale);
  }
  // mouse: drag orbits, right- or shift-drag pans, the wheel zooms; touch: one finger orbits,
  // two fingers pinch to zoom and move together to pan
  const touches = new Map();
  let drag = null, pinch = null;
  const canvas = renderer.domElement;
  function zoom(factor) {
    orbit.distance = Math.min(4 * size, Math.max(2, orbit.distance * factor));
  }
  function spread() {
    const [a, b] = [...touches.values()];
    return { d: Math.hypot(a.x - b.x, a.y - b.y), x: (a.x + b.x) / 2, y: (a.y + b.y) / 2 };
  }
  canvas.addEventListener("contextmenu", (e) => e.preventDefault());
  canvas.addEventListener("pointerdown", (e) => {
    touches.set(e.pointerId, { x: e.clientX, y: e.clientY });
    drag = { x: e.clientX, y: e.clientY, pan: e.button === 2 || e.shiftKey };
    pinch = touches.size === 2 ? spread() : null;
    canvas.setPointerCapture(e.pointerId);
  });
  const release = (e) => { touches.delete(e.pointerId); drag = null; pinch = null; };
  canvas.addEventListener("pointerup", release);
  canvas.addEventListener("pointercancel", release);
  canvas.addEventListener("pointermove", (e) => {
    if (touches.has(e.pointerId)) touches.set(e.pointerId, { x: e.clientX, y: e.clientY });
    saved = null;
    if (pinch && touches.size === 2) {
      const now = spread();
      if (now.d > 0 && pinch.d > 0) zoom(pinch.d / now.d);
      pan(now.x - pinch.x, now.y - pinch.y);
      pinch = now;
    } else if (drag) {
      const dx = e.clientX - drag.x, dy = e.clientY - drag.y;
      drag.x = e.clientX; drag.y = e.clientY;
      if (drag.pan) pan(dx, dy);
      else {
        orbit.yaw -= dx * 0.3;
        orbit.pitch = Math.min(89.9, Math.max(5, orbit.pitch + dy * 0.3));
      }
    } else return;
    placeCamera();
  });
  canvas.addEventListener("wheel", (e) => {
    e.preventDefault();
    zoom(Math.exp(e.deltaY * 0.001));
    placeCamera();
  }, { passive: false });

  // ---- overlays ------------------------------------------------------------------------------
  const overlays = { trajectory: new THREE.Group(), templates: new THREE.Group(), sight: new THREE.Group() };
  for (const group of Object.values(overlays)) scene.add(group);
  function line(points, colour) {
    const shape = new THREE.BufferGeometry().setFromPoints(points.map((p) => new THREE.Vector3(p[0], p[1], p[2])));
    const drawn = new THREE.Line(shape, new THREE.LineBasicMaterial({ color: colour, depthTest: false }));
    drawn.renderOrder = 10;
    return drawn;
  }
  function clear(group) {
    for (const child of [...group.children]) { child.geometry.dispose(); child.material.dispose(); group.remove(child); }
  }
  function drawOverlays(step) {
    for (const group of Object.values(overlays)) clear(group);
    if (!step) return;
    if (step.trajectory.length > 1) {
      const path = new THREE.CatmullRomCurve3(step.trajectory.map((r) => new THREE.Vector3(r[1], r[2], r[3] + 0.15)));
      const tube = new THREE.Mesh(new THREE.TubeGeometry(path, 4 * step.trajectory.length, 0.07, 6),
                                  new THREE.MeshBasicMaterial({ color: 0xffffff, depthTest: false }));
      tube.renderOrder = 10;  // drawn over the scenery, like every overlay
      overlays.trajectory.add(tube);
    }
    const start = step.poses[step.model];  // the templates as laid at the action's start
    overlays.templates.position.set(start[0], start[1], 0);
    overlays.templates.rotation.set(0, 0, THREE.MathUtils.degToRad(start[3]));
    for (const [template, points] of data.templates) {
      overlays.templates.add(line(points.map((p) => [p[0], p[1], start[2] + p[2]]), TEMPLATE_COLOURS[template]));
    }
    for (const sight of step.sight) overlays.sight.add(line([sight.from, sight.to], sight.visible ? 0x33ff55 : 0xff3333));
  }
  const toggles = { trajectory: "show-trajectory", templates: "show-templates", sight: "show-sight" };
  function applyToggles() {
    for (const [name, id] of Object.entries(toggles)) overlays[name].visible = document.getElementById(id).checked;
    redraw();
  }
  for (const id of Object.values(toggles)) document.getElementById(id).addEventListener("change", applyToggles);

  // ---- timeline ------------------------------------------------------------------------------
  const timeline = { index: -1, t: 0, playing: false, hold: 0 };
  function duration(step) { return step.trajectory.length ? step.trajectory[step.trajectory.length - 1][0] : 0; }
  function poseAt(step, t) {
    const rows = step.trajectory;
    if (!rows.length || t >= duration(step)) return step.after;
    let k = 1;
    while (k < rows.length - 1 && rows[k][0] < t) k++;
    const a = rows[k - 1], b = rows[k], f = b[0] > a[0] ? Math.min(1, Math.max(0, (t - a[0]) / (b[0] - a[0]))) : 1;
    return [1, 2, 3, 4].map((c) => a[c] + (b[c] - a[c]) * f);
  }
  function place(modelId, pose) {
    const mini = miniatures[modelId];
    mini.group.visible = true;
    mini.group.position.set(pose[0], pose[1], pose[2]);
    mini.group.rotation.set(0, 0, THREE.MathUtils.degToRad(pose[3]));
  }
  function placeScenery(moves) {
    for (const [id, piece] of Object.entries(scenery)) {
      const move = moves[id] || [0, 0, 0, false];
      piece.pivot.position.set(piece.centre[0] + move[0], piece.centre[1] + move[1], 0);
      piece.pivot.rotation.set(0, 0, THREE.MathUtils.degToRad(move[2]));
      piece.pivot.visible = !move[3];
    }
  }
  function showStart() {
    for (const model of data.miniatures.models) {
      const pose = data.start[model.id];
      if (pose) place(model.id, pose); else miniatures[model.id].group.visible = false;
    }
    placeScenery({});
  }
  function text(step) {
    document.getElementById("title").textContent = step ? step.title
      : (steps.length ? "Starting positions: " + steps.length + " actions; press play or step through them" : "");
    document.getElementById("story").classList.toggle("empty", !steps.length);
    const lines = document.getElementById("lines");
    lines.replaceChildren();
    const row = (sentence, detail) => {
      const div = document.createElement("div");
      if (sentence) div.append(sentence + " ");
      if (detail) { const small = document.createElement("small"); small.textContent = detail; div.append(small); }
      lines.append(div);
    };
    for (const [sentence, detail] of step ? step.lines : []) row(sentence, detail);
    const sights = step ? step.sight : [];
    // one reason for every line (a rider with no gun): said once, under them, not on each
    const shared = sights.length > 1 && sights.every((s) => s.no_shot && s.no_shot === sights[0].no_shot)
      ? sights[0].no_shot : "";
    for (const sight of sights) {
      row("", "sight to " + data.names[sight.target] + ": top-down " + (sight.visible ? "clear" : "blocked")
        + ", true LOS " + sight.percent + "% visible"
        + (sight.can_shoot ? ", can shoot" : sight.no_shot && !shared ? ", no shot: " + sight.no_shot : ""));
    }
    if (shared) row("", "no shot at any: " + shared);
    if (data.end && step && timeline.index === steps.length - 1) {  // the last action: how the game ended
      const end = document.createElement("div");
      end.className = "end";
      const title = document.createElement("b");
      title.textContent = (data.end.cut_short ? "" : "Game over: ") + data.end.title;
      end.append(title);
      lines.append(end);
      for (const line of data.end.lines) row(line, "");
    }
    document.getElementById("counter").textContent = (timeline.index + 1) + " / " + steps.length;
    document.getElementById("slider").value = timeline.index + 1;
  }
  function show() {
    const step = steps[timeline.index];
    if (!step) { showStart(); drawOverlays(null); text(null); redraw(); return; }
    for (const model of data.miniatures.models) {
      const pose = step.poses[model.id];
      if (pose) place(model.id, pose); else miniatures[model.id].group.visible = false;
    }
    const ended = timeline.t >= duration(step);
    if (ended && step.out) miniatures[step.model].group.visible = false;
    else place(step.model, poseAt(step, timeline.t));
    if (ended) for (const id of step.taken_out || []) miniatures[id].group.visible = false;  // shot, tagged
    placeScenery(step.scenery);
    if (timeline.drawn !== timeline.index) { drawOverlays(step); text(step); timeline.drawn = timeline.index; }
    redraw();
  }
  function goTo(index, atEnd) {
    timeline.index = Math.max(-1, Math.min(steps.length - 1, index));
    const step = steps[timeline.index];
    timeline.t = step && atEnd ? duration(step) : 0;
    timeline.hold = 0;
    show();
  }
  function setPlaying(on) {
    timeline.playing = on && steps.length > 0;
    document.getElementById("play").innerHTML = timeline.playing ? "&#9646;&#9646; pause" : "&#9654; play";
    if (timeline.playing) {
      if (timeline.index >= steps.length - 1 && timeline.t >= duration(steps[steps.length - 1])) goTo(-1, false);
      last = performance.now();
      requestAnimationFrame(tick);
    }
  }
  let last = 0;
  function tick(now) {
    if (!timeline.playing) return;
    const dt = Math.min(0.1, (now - last) / 1000);
    last = now;
    const step = steps[timeline.index];
    if (!step) goTo(0, false);
    else if (timeline.t < duration(step)) { timeline.t = Math.min(duration(step), timeline.t + dt); show(); }
    else if ((timeline.hold += dt) >= HOLD_S) {
      if (timeline.index < steps.length - 1) goTo(timeline.index + 1, false);
      else { setPlaying(false); return; }
    }
    requestAnimationFrame(tick);
  }
  const slider = document.getElementById("slider");
  slider.max = steps.length;
  slider.addEventListener("input", () => { setPlaying(false); goTo(Number(slider.value) - 1, true); });
  document.getElementById("prev").addEventListener("click", () => { setPlaying(false); goTo(timeline.index - 1, true); });
  document.getElementById("next").addEventListener("click", () => { setPlaying(false); goTo(timeline.index + 1, true); });
  document.getElementById("play").addEventListener("click", () => setPlaying(!timeline.playing));
  document.getElementById("topdown").addEventListener("click", topDown);
  if (!steps.length) {  // a table without a replay: nothing to play, nothing to overlay
    for (const id of ["prev", "play", "next", "slider", "counter", "replay-keys"]) document.getElementById(id).hidden = true;
    for (const id of Object.values(toggles)) document.getElementById(id).parentElement.hidden = true;
  }
  const keys = { " ": () => setPlaying(!timeline.playing), n: () => { setPlaying(false); goTo(timeline.index + 1, true); },
                 p: () => { setPlaying(false); goTo(timeline.index - 1, true); }, v: topDown };
  keys.ArrowRight = keys.n; keys.ArrowLeft = keys.p;
  for (const [key, id] of [["j", "show-trajectory"], ["t", "show-templates"], ["l", "show-sight"]]) {
    keys[key] = () => { const box = document.getElementById(id); box.checked = !box.checked; applyToggles(); };
  }
  window.addEventListener("keydown", (e) => {
    if (e.target.tagName === "INPUT" && e.target.type !== "checkbox" || !keys[e.key]) return;
    e.preventDefault();
    keys[e.key]();
  });

  // ---- drawing -------------------------------------------------------------------------------
  let pending = false;
  const screen = new THREE.Vector3();
  function screenOf(modelId) {  // where a miniature's base centre is on screen, CSS pixels
    const mini = miniatures[modelId];
    if (!mini.group.visible) return null;
    screen.copy(mini.group.position).project(camera);
    return [(screen.x + 1) / 2 * view.clientWidth, (1 - screen.y) / 2 * view.clientHeight];
  }
  function tableCorners() {  // where the table top's four corners are on screen, CSS pixels
    return [[0, 0], [table.width, 0], [table.width, table.depth], [0, table.depth]].map(([x, y]) => {
      screen.set(x, y, table.top).project(camera);
      return [(screen.x + 1) / 2 * view.clientWidth, (1 - screen.y) / 2 * view.clientHeight];
    });
  }
  function render() {
    pending = false;
    renderer.render(scene, camera);
    const active = steps[timeline.index] ? steps[timeline.index].model : null;
    for (const [id, mini] of Object.entries(miniatures)) {
      const at = screenOf(id);
      mini.tag.style.display = at ? "" : "none";
      if (at) { mini.tag.style.left = at[0] + "px"; mini.tag.style.top = at[1] + "px"; }
      mini.tag.classList.toggle("active", id === active);
    }
    window.entropy3dShare.frames++;
  }
  function redraw() { if (!pending) { pending = true; requestAnimationFrame(render); } }
  function resize() {
    document.body.style.setProperty("--bar", document.getElementById("bar").offsetHeight + "px");
    renderer.setSize(view.clientWidth, view.clientHeight, false);
    const atHome = orbit.distance === home.distance && orbit.target.equals(home.target) &&
                   orbit.yaw === home.yaw && orbit.pitch === home.pitch;
    camera.aspect = view.clientWidth / Math.max(1, view.clientHeight);
    camera.updateProjectionMatrix();
    // a narrow view backs off until the table's width fits (1.42: the widest aspect it fits at 1.5 sizes)
    home.distance = 1.5 * size * Math.max(1, 1.42 / camera.aspect);
    if (atHome) orbit.distance = home.distance;
    placeCamera();
  }
  window.addEventListener("resize", resize);

  // what a test (or a curious reader in the console) can ask the page
  window.entropy3dShare = { frames: 0, steps: steps.length, goTo: goTo, topDown: topDown, screenOf: screenOf,
                            tableCorners: tableCorners,
                            index: () => timeline.index, renderNow: render,
                            shown: (id) => miniatures[id].group.visible };
  document.getElementById("name").textContent = data.name;
  document.body.classList.toggle("replay", steps.length > 0);
  applyToggles();
  resize();
  goTo(-1, false);
})();
