// The three.js stage: renderer, camera, orbit controls, lights, the ground and the fog. Knows nothing of IK.
//
// Two qualities. "high": antialiasing, shadow maps from the sun, lit (physically based) ground. "low", what
// a software renderer (SwiftShader, llvmpipe: the CPU draws every pixel) is given by default: no
// antialiasing, no shadow maps, and a ground drawn unlit, its light baked into its texture, since the
// ground covers most of the canvas and per-pixel lighting of it costs the most. Both draw the same grounding
// cues, cheap on any renderer: a ground whose grid is a mipmapped texture (it fades into a flat tone with
// distance instead of breaking into moire) under linear fog that swallows it before the horizon, and soft
// contact shadows (parts/shadows.js) under whatever stands on it.

import * as THREE from "three";
import { OrbitControls } from "three/addons/controls/OrbitControls.js";

const SKY = 0x1f232b;        // background and fog: the ground fades into it
const GROUND = 0x4b5361;     // the ground's tone near the content: well clear of the sky's
const GRID_MINOR = 0x565f6e;
const GRID_MAJOR = 0x646e7f;
const TILE = 2;              // world units per grid texture tile: a major line per tile, minor lines every 0.5

/** How far past the terrain's edge each ring of the skirt lies (world units): close rings where the land
 * still has the edge's relief, wide ones where it has levelled out, the last well past any fog's end. */
const SKIRT_RINGS = [0, 0.6, 1.5, 3, 5.5, 9, 15, 25, 45, 90, 200];

/**
 * The land round a terrain, out to the horizon: rings of vertices round the terrain's border (its own
 * vertices first, so that the seam is closed), each square ring farther out, their heights and colours
 * easing from the border's to the terrain's mean, so that the relief dies away instead of ending at a cliff.
 * `n`: the terrain's samples per side; `position`, `colors`: its vertices (the PlaneGeometry's order).
 */
function skirtGeometry(n, position, colors) {
  const border = [];
  for (let c = 0; c < n - 1; c++) border.push(c);                          // the far row, along +x
  for (let r = 0; r < n - 1; r++) border.push(r * n + n - 1);              // the +x column, along +z
  for (let c = n - 1; c > 0; c--) border.push((n - 1) * n + c);            // the near row, back along -x
  for (let r = n - 1; r > 0; r--) border.push(r * n);                      // the -x column, back along -z
  const m = border.length;
  let mean = 0;
  const tone = [0, 0, 0];
  for (const i of border) {
    mean += position.getY(i) / m;
    for (let k = 0; k < 3; k++) tone[k] += colors[3 * i + k] / m;
  }
  const half = Math.abs(position.getX(0));
  const rings = SKIRT_RINGS.length;
  const xyz = new Float32Array(rings * m * 3);
  const rgb = new Float32Array(rings * m * 3);
  for (let k = 0; k < rings; k++) {
    const d = SKIRT_RINGS[k];
    const scale = (half + d) / half;
    // How much of the edge's relief remains, and of its colour (sooner: the colour of one border vertex
    // carried far out would draw a streak).
    const keep = Math.exp(-d / 1.2);
    const hue = Math.exp(-d / 0.5);
    border.forEach((i, j) => {
      const o = 3 * (k * m + j);
      xyz[o] = position.getX(i) * scale;
      xyz[o + 1] = mean + (position.getY(i) - mean) * keep;
      xyz[o + 2] = position.getZ(i) * scale;
      for (let c = 0; c < 3; c++) rgb[o + c] = tone[c] + (colors[3 * i + c] - tone[c]) * hue;
    });
  }
  const index = [];
  for (let k = 0; k + 1 < rings; k++) {
    for (let j = 0; j < m; j++) {
      const a = k * m + j;
      const b = k * m + ((j + 1) % m);
      const c = a + m;
      const e = b + m;
      index.push(a, b, c, b, e, c);  // counter-clockwise seen from above: facing up
    }
  }
  const geometry = new THREE.BufferGeometry();
  geometry.setAttribute("position", new THREE.BufferAttribute(xyz, 3));
  geometry.setAttribute("color", new THREE.BufferAttribute(rgb, 3));
  geometry.setIndex(index);
  geometry.computeVertexNormals();
  return geometry;
}

/** The WebGL renderer's name (the unmasked one where the browser gives it), or null without WebGL. */
export function rendererName() {
  const gl = document.createElement("canvas").getContext("webgl2");
  if (!gl) return null;
  const info = gl.getExtension("WEBGL_debug_renderer_info");
  const name = String(gl.getParameter(info ? info.UNMASKED_RENDERER_WEBGL : gl.RENDERER));
  gl.getExtension("WEBGL_lose_context")?.loseContext();
  return name;
}

/** Whether a renderer name is a software rasteriser's: the CPU draws every pixel. */
export function isSoftware(name) {
  return /swiftshader|llvmpipe|softpipe|software/i.test(name ?? "");
}

/** The ground's texture: one tile of grid on the ground's tone (canvas 2D, drawn once). */
function gridTexture(renderer, software) {
  const size = 256;
  const canvas = document.createElement("canvas");
  canvas.width = canvas.height = size;
  const ctx = canvas.getContext("2d");
  ctx.fillStyle = `#${new THREE.Color(GROUND).getHexString()}`;
  ctx.fillRect(0, 0, size, size);
  const line = (x, y, w, h, color) => {
    ctx.fillStyle = `#${new THREE.Color(color).getHexString()}`;
    ctx.fillRect(x, y, w, h);
  };
  // Minor lines every quarter of the tile (0.5 units), a major one on its edge (both sides of the seam).
  for (let k = 1; k < 4; k++) {
    const p = (k * size) / 4 - 1;
    line(p, 0, 2, size, GRID_MINOR);
    line(0, p, size, 2, GRID_MINOR);
  }
  for (const p of [0, size - 2]) {
    line(p, 0, 2, size, GRID_MAJOR);
    line(0, p, size, 2, GRID_MAJOR);
  }
  const texture = new THREE.CanvasTexture(canvas);
  texture.colorSpace = THREE.SRGBColorSpace;
  texture.wrapS = texture.wrapT = THREE.RepeatWrapping;
  // Anisotropic filtering keeps distant lines crisp on a GPU; a software renderer pays for it with many
  // texture reads a pixel over most of the canvas (it halved the frame rate here), at either quality: there
  // the far grid blurs into the ground's tone instead, which is all it has to do.
  texture.anisotropy = software ? 1 : Math.min(8, renderer.capabilities.getMaxAnisotropy());
  return texture;
}

export class Stage {
  /**
   * @param {HTMLElement} container the element the canvas fills
   * @param {{position: number[], target: number[]}} view the initial camera
   * @param {string} quality "high", "low" or "auto" (low on a software renderer, else high)
   */
  constructor(container, view, quality = "auto") {
    this.container = container;
    this.rendererName = rendererName();
    this.software = isSoftware(this.rendererName);
    this.asked = quality;
    this.quality = this.resolve(quality);
    const high = this.quality === "high";
    this.high = high;
    const renderer = new THREE.WebGLRenderer({ antialias: high });
    renderer.shadowMap.enabled = high;
    renderer.shadowMap.type = THREE.PCFShadowMap;
    renderer.outputColorSpace = THREE.SRGBColorSpace;
    renderer.toneMapping = THREE.ACESFilmicToneMapping;
    renderer.toneMappingExposure = 1.05;
    renderer.setClearColor(SKY);
    container.appendChild(renderer.domElement);
    this.renderer = renderer;

    const scene = new THREE.Scene();
    scene.background = new THREE.Color(SKY);
    scene.fog = new THREE.Fog(SKY, 8, 30);
    this.scene = scene;

    this.camera = new THREE.PerspectiveCamera(45, 1, 0.05, 300);
    this.camera.position.fromArray(view.position);
    this.controls = new OrbitControls(this.camera, renderer.domElement);
    this.controls.target.fromArray(view.target);
    this.controls.enableDamping = true;
    this.controls.maxPolarAngle = Math.PI * 0.495;
    this.controls.update();

    // A cool sky and a warm bounce from the ground, a key light from above-front-right and, since "low" has
    // no shadows to model form, a faint rim from behind-left so that limbs keep their roundness.
    scene.add(new THREE.HemisphereLight(0xe4ecff, 0x54483a, 1.35));
    const sun = new THREE.DirectionalLight(0xfff4e6, 2.3);
    sun.castShadow = high;
    sun.shadow.mapSize.set(1024, 1024);
    sun.shadow.bias = -0.001;
    sun.shadow.normalBias = 0.02;
    scene.add(sun);
    scene.add(sun.target);
    this.sun = sun;
    const rim = new THREE.DirectionalLight(0xbcd2ff, 0.7);
    rim.position.set(-5, 4, -6);
    scene.add(rim);
    this.sunOffset = new THREE.Vector3(4, 9, 5);

    const texture = gridTexture(renderer, this.software);
    texture.repeat.set(60 / TILE, 60 / TILE);
    // Low: unlit and not tone mapped, so that it shows the texture's own tones, close to what the lights
    // give the lit one (the hemisphere's sky side and the sun from high above).
    const material = high
      ? new THREE.MeshStandardMaterial({ map: texture, roughness: 0.95, metalness: 0.0 })
      : new THREE.MeshBasicMaterial({ map: texture, toneMapped: false });
    const ground = new THREE.Mesh(new THREE.PlaneGeometry(60, 60).rotateX(-Math.PI / 2), material);
    ground.receiveShadow = high;
    ground.name = "ground";
    scene.add(ground);
    this.ground = ground;
    this.terrain = null;
    this.skirt = null;         // the land round the terrain, to the horizon
    this.terrainGrid = null;   // {half, n, step, heights}: for groundHeight on the terrain

    this.resize = this.resize.bind(this);
    window.addEventListener("resize", this.resize);
    this.resize();
  }

  /** The quality ("high" or "low") that `quality` ("auto", "high" or "low") means on this renderer. */
  resolve(quality) {
    return quality === "auto" ? (this.software ? "low" : "high") : quality;
  }

  /** {name, software, quality, auto, antialias, shadows}: the renderer as it was made (read back from WebGL). */
  describe() {
    const { renderer } = this;
    return { name: this.rendererName, software: this.software, quality: this.quality, auto: this.resolve("auto"),
      antialias: Boolean(renderer.getContext().getContextAttributes()?.antialias),
      shadows: renderer.shadowMap.enabled, land: this.land() };
  }

  /** The ground drawn: {kind: "plane" | "terrain", half (of the side of the flat plane or of the terrain),
   * reach (how far from the centre the land goes on, on each side, in world units)}. */
  land() {
    if (!this.terrain) return { kind: "plane", half: 30, reach: 30 };
    const box = new THREE.Box3().setFromBufferAttribute(this.skirt.geometry.attributes.position);
    return { kind: "terrain", half: this.terrainGrid.half, reach: Math.min(-box.min.x, box.max.x, -box.min.z, box.max.z) };
  }

  /** Put the camera where a view says: {position, target}. */
  setView(view) {
    this.camera.position.fromArray(view.position);
    this.controls.target.fromArray(view.target);
    this.controls.update();
  }

  /**
   * The camera stands `distance` from what it looks at, a scene `size` across: the fog starts behind the
   * content and has swallowed the ground well before the horizon; the sun's shadow box covers the content.
   */
  setDistance(distance, size) {
    this.scene.fog.near = distance + 0.6 * size;
    this.scene.fog.far = 2.6 * distance + 1.5 * size;
    const s = this.sun.shadow.camera;
    const half = 0.75 * size + 1;
    s.left = -half; s.right = half; s.top = half; s.bottom = -half; s.near = 0.5; s.far = 20 + 2 * size;
    s.updateProjectionMatrix();
    this.sunOffset.set(4, 9, 5).setLength(Math.max(11, size));
  }

  /**
   * Replace the flat ground by a heightfield: `grid` = {half, resolution}, `heights` row by row along z
   * (heights[r * n + c] at x = -half + c step, z = -half + r step), the vertex order of a PlaneGeometry
   * laid into XZ. With `grid` null, the flat ground comes back. Returns the terrain mesh (for picking).
   */
  setTerrain(grid, heights) {
    if (this.terrain) {
      for (const mesh of [this.terrain, this.skirt]) {
        this.scene.remove(mesh);
        mesh.geometry.dispose();
      }
      this.terrain.material.dispose();
      this.terrain = null;
      this.skirt = null;
      this.terrainGrid = null;
    }
    this.ground.visible = !grid;
    if (!grid) return null;
    const n = grid.resolution;
    const size = 2 * grid.half;
    const geometry = new THREE.PlaneGeometry(size, size, n - 1, n - 1).rotateX(-Math.PI / 2);
    const position = geometry.attributes.position;
    const colors = new Float32Array(position.count * 3);
    const low = new THREE.Color(0x3a4a3c);
    const high = new THREE.Color(0x7d8a6c);
    const c = new THREE.Color();
    let min = Infinity;
    let max = -Infinity;
    for (let i = 0; i < heights.length; i++) {
      min = Math.min(min, heights[i]);
      max = Math.max(max, heights[i]);
    }
    for (let i = 0; i < position.count; i++) {
      position.setY(i, heights[i]);
      c.lerpColors(low, high, (heights[i] - min) / Math.max(max - min, 1e-9));
      // A faint chequer every 2 cells, so slopes read even in flat light.
      const r = Math.floor(i / n);
      const k = i % n;
      if (((r >> 1) + (k >> 1)) % 2) c.multiplyScalar(0.92);
      c.toArray(colors, i * 3);
    }
    geometry.setAttribute("color", new THREE.BufferAttribute(colors, 3));
    geometry.computeVertexNormals();
    // Lambert at low: lit per vertex colour, cheaper per pixel than the physically based material.
    const material = this.high
      ? new THREE.MeshStandardMaterial({ vertexColors: true, roughness: 0.95, metalness: 0.0 })
      : new THREE.MeshLambertMaterial({ vertexColors: true });
    const mesh = new THREE.Mesh(geometry, material);
    mesh.receiveShadow = this.high;
    mesh.name = "terrain";
    this.scene.add(mesh);
    this.terrain = mesh;
    // The land goes on past the terrain's edge to the horizon, where the fog takes it into the sky.
    this.skirt = new THREE.Mesh(skirtGeometry(n, position, colors), material);
    this.skirt.receiveShadow = this.high;
    this.skirt.name = "terrain-skirt";
    this.scene.add(this.skirt);
    this.terrainGrid = { half: grid.half, n, step: size / (n - 1), heights: Float64Array.from(heights) };
    return mesh;
  }

  /** The ground's height at (x, z): 0 on the flat ground, the heightfield's (bilinear) on a terrain. */
  groundHeight(x, z) {
    const g = this.terrainGrid;
    if (!g) return 0;
    const fx = Math.min(Math.max((x + g.half) / g.step, 0), g.n - 1.000001);
    const fz = Math.min(Math.max((z + g.half) / g.step, 0), g.n - 1.000001);
    const c = Math.floor(fx);
    const r = Math.floor(fz);
    const u = fx - c;
    const v = fz - r;
    const h = g.heights;
    const i = r * g.n + c;
    return (1 - v) * ((1 - u) * h[i] + u * h[i + 1]) + v * ((1 - u) * h[i + g.n] + u * h[i + g.n + 1]);
  }

  /** Move the view (camera and orbit target) by (dx, dy, dz): following a walker. */
  pan(dx, dy, dz) {
    this.camera.position.x += dx;
    this.camera.position.y += dy;
    this.camera.position.z += dz;
    this.controls.target.x += dx;
    this.controls.target.y += dy;
    this.controls.target.z += dz;
  }

  resize() {
    const { clientWidth: w, clientHeight: h } = this.container;
    if (!w || !h) return;
    // Capped at 2 (a phone's 3x would triple the pixels to fill for little gain), and 1 at low quality,
    // where every pixel is drawn by the CPU. Set on every resize, as zooming the page changes it.
    this.renderer.setPixelRatio(Math.min(window.devicePixelRatio || 1, this.high ? 2 : 1));
    this.renderer.setSize(w, h, false);
    this.camera.aspect = w / h;
    this.camera.updateProjectionMatrix();
  }

  render() {
    this.controls.update();
    // The sun (and its shadow box) follows what the camera looks at.
    const t = this.controls.target;
    this.sun.target.position.copy(t);
    this.sun.position.copy(t).add(this.sunOffset);
    this.renderer.render(this.scene, this.camera);
  }
}
