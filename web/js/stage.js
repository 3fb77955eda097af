// The three.js stage: renderer, camera, orbit controls, lights, ground and grid. Knows nothing of IK.

import * as THREE from "three";
import { OrbitControls } from "three/addons/controls/OrbitControls.js";

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

export class Stage {
  /**
   * @param {HTMLElement} container the element the canvas fills
   * @param {{position: number[], target: number[]}} view the initial camera
   * @param {string} quality "high" (antialiasing and soft shadows), "low" (neither: what a software
   *   renderer draws several times faster) or "auto" (low on a software renderer, else high)
   */
  constructor(container, view, quality = "auto") {
    this.container = container;
    this.rendererName = rendererName();
    this.software = isSoftware(this.rendererName);
    this.asked = quality;
    this.quality = this.resolve(quality);
    const high = this.quality === "high";
    const renderer = new THREE.WebGLRenderer({ antialias: high });
    renderer.setPixelRatio(Math.min(window.devicePixelRatio || 1, 2));
    renderer.shadowMap.enabled = high;
    renderer.shadowMap.type = THREE.PCFShadowMap;
    renderer.outputColorSpace = THREE.SRGBColorSpace;
    renderer.toneMapping = THREE.ACESFilmicToneMapping;
    container.appendChild(renderer.domElement);
    this.renderer = renderer;

    const scene = new THREE.Scene();
    scene.background = new THREE.Color(0x1b1f27);
    scene.fog = new THREE.Fog(0x1b1f27, 14, 38);
    this.scene = scene;

    this.camera = new THREE.PerspectiveCamera(45, 1, 0.05, 200);
    this.camera.position.fromArray(view.position);
    this.controls = new OrbitControls(this.camera, renderer.domElement);
    this.controls.target.fromArray(view.target);
    this.controls.enableDamping = true;
    this.controls.maxPolarAngle = Math.PI * 0.495;
    this.controls.update();

    scene.add(new THREE.HemisphereLight(0xdde6ff, 0x3a3226, 1.1));
    const sun = new THREE.DirectionalLight(0xffffff, 2.2);
    sun.position.set(4, 9, 5);
    sun.castShadow = true;
    sun.shadow.mapSize.set(1024, 1024);
    const s = sun.shadow.camera;
    s.left = -6; s.right = 6; s.top = 6; s.bottom = -6; s.near = 1; s.far = 30;
    sun.shadow.bias = -0.0005;
    scene.add(sun);
    scene.add(sun.target);
    this.sun = sun;

    const ground = new THREE.Mesh(
      new THREE.CircleGeometry(30, 64).rotateX(-Math.PI / 2),
      new THREE.MeshStandardMaterial({ color: 0x2a2f38, roughness: 0.95, metalness: 0.0 }),
    );
    ground.receiveShadow = true;
    scene.add(ground);
    const grid = new THREE.GridHelper(30, 60, 0x4a5262, 0x353b47);
    grid.position.y = 0.002;
    scene.add(grid);
    this.flat = [ground, grid];
    this.terrain = null;

    this.resize = this.resize.bind(this);
    window.addEventListener("resize", this.resize);
    this.resize();
  }

  /** The quality ("high" or "low") that `quality` ("auto", "high" or "low") means on this renderer. */
  resolve(quality) {
    return quality === "auto" ? (this.software ? "low" : "high") : quality;
  }

  /** {name, software, quality, antialias, shadows}: the renderer as it was made (read back from WebGL). */
  describe() {
    const { renderer } = this;
    return { name: this.rendererName, software: this.software, quality: this.quality,
      antialias: Boolean(renderer.getContext().getContextAttributes()?.antialias),
      shadows: renderer.shadowMap.enabled };
  }

  /** Put the camera where a scene suggests: {position, target}. */
  setView(view) {
    this.camera.position.fromArray(view.position);
    this.controls.target.fromArray(view.target);
    this.controls.update();
  }

  /**
   * Replace the flat ground by a heightfield: `grid` = {half, resolution}, `heights` row by row along z
   * (heights[r * n + c] at x = -half + c step, z = -half + r step), the vertex order of a PlaneGeometry
   * laid into XZ. With `grid` null, the flat ground comes back. Returns the terrain mesh (for picking).
   */
  setTerrain(grid, heights) {
    if (this.terrain) {
      this.scene.remove(this.terrain);
      this.terrain.geometry.dispose();
      this.terrain.material.dispose();
      this.terrain = null;
    }
    for (const thing of this.flat) thing.visible = !grid;
    if (!grid) return null;
    const n = grid.resolution;
    const size = 2 * grid.half;
    const geometry = new THREE.PlaneGeometry(size, size, n - 1, n - 1).rotateX(-Math.PI / 2);
    const position = geometry.attributes.position;
    const colors = new Float32Array(position.count * 3);
    const low = new THREE.Color(0x2c3a33);
    const high = new THREE.Color(0x6f7d63);
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
      if (((r >> 1) + (k >> 1)) % 2) c.multiplyScalar(0.93);
      c.toArray(colors, i * 3);
    }
    geometry.setAttribute("color", new THREE.BufferAttribute(colors, 3));
    geometry.computeVertexNormals();
    const mesh = new THREE.Mesh(geometry, new THREE.MeshStandardMaterial({
      vertexColors: true, roughness: 0.95, metalness: 0.0, flatShading: false,
    }));
    mesh.receiveShadow = true;
    mesh.name = "terrain";
    this.scene.add(mesh);
    this.terrain = mesh;
    return mesh;
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
    // Capped at 2: a phone's 3x would triple the pixels software and mobile GPUs fill for little gain.
    // Set on every resize, as zooming the page changes it.
    this.renderer.setPixelRatio(Math.min(window.devicePixelRatio || 1, 2));
    this.renderer.setSize(w, h, false);
    this.camera.aspect = w / h;
    this.camera.updateProjectionMatrix();
  }

  render() {
    this.controls.update();
    // The sun (and its shadow box) follows what the camera looks at.
    const t = this.controls.target;
    this.sun.target.position.copy(t);
    this.sun.position.set(t.x + 4, t.y + 9, t.z + 5);
    this.renderer.render(this.scene, this.camera);
  }
}
