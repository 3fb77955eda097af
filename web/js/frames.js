// Chain frames: Python writes each chain's bone and joint records in the chain's own frame (the node it
// hangs from: a spider's coxa, the tentacles' crown) and that frame's world pose in the `frames` section,
// [x, y, z, qw, qx, qy, qz] per chain (ikcore.rigs.frames says why). toWorld applies them in place, right
// after Python fills the array and before anything reads it, as a scene graph applies a parent's
// transform:
//   world point    = P + Q p Q*    (both points of a bone, each joint's point)
//   world rotation = Q q           (each joint's frame)
// Extra bones, targets and results are world values already. Nothing is allocated: plain numbers only.

/**
 * Turn the chains' records of the shared array into world coordinates, in place (once per write).
 * @param {Float64Array} buf the frame, as Python wrote it
 * @param {object} layout the scene layout (sections, chains)
 */
export function toWorld(buf, layout) {
  const { bones, joints, frames } = layout.sections;
  const chains = layout.chains;
  for (let k = 0; k < chains.length; k++) {
    const f = frames.offset + k * frames.stride;
    const px = buf[f], py = buf[f + 1], pz = buf[f + 2];
    const qw = buf[f + 3], qx = buf[f + 4], qy = buf[f + 5], qz = buf[f + 6];
    const chain = chains[k];
    const boneEnd = chain.bones[0] + chain.bones[1];
    for (let i = chain.bones[0]; i < boneEnd; i++) {
      const o = bones.offset + i * bones.stride;
      place(buf, o, px, py, pz, qw, qx, qy, qz);
      place(buf, o + 3, px, py, pz, qw, qx, qy, qz);
    }
    const jointEnd = chain.joints[0] + chain.joints[1];
    for (let i = chain.joints[0]; i < jointEnd; i++) {
      const o = joints.offset + i * joints.stride;
      place(buf, o, px, py, pz, qw, qx, qy, qz);
      const w = buf[o + 4], x = buf[o + 5], y = buf[o + 6], z = buf[o + 7];
      buf[o + 4] = qw * w - qx * x - qy * y - qz * z;
      buf[o + 5] = qw * x + qx * w + qy * z - qz * y;
      buf[o + 6] = qw * y - qx * z + qy * w + qz * x;
      buf[o + 7] = qw * z + qx * y - qy * x + qz * w;
    }
  }
}

/** buf[o..o+2] = P + Q v Q*, with v + 2w (u x v) + 2 u x (u x v) for Q = (w, u). */
function place(buf, o, px, py, pz, qw, qx, qy, qz) {
  const vx = buf[o], vy = buf[o + 1], vz = buf[o + 2];
  const tx = 2 * (qy * vz - qz * vy);
  const ty = 2 * (qz * vx - qx * vz);
  const tz = 2 * (qx * vy - qy * vx);
  buf[o] = px + vx + qw * tx + (qy * tz - qz * ty);
  buf[o + 1] = py + vy + qw * ty + (qz * tx - qx * tz);
  buf[o + 2] = pz + vz + qw * tz + (qx * ty - qy * tx);
}
