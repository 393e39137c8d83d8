// bench-collapse-peer.js: the peer column of tools/bench-collapse.sh, the
// npm package `wavefunctioncollapse` (kchapelier's JavaScript port of
// mxgmn's WFC) run on the same rules, sizes and runs as tilesat collapse.
//
//   node bench-collapse-peer.js MODULES simple TILESET.xml SUBSET|- WxH PERIODIC RUNS BUDGET
//   node bench-collapse-peer.js MODULES overlapping SAMPLE.png N SYMMETRY WxH PERIODIC RUNS BUDGET
//
// MODULES is the node_modules folder the bench installed the package into
// (never this repository).  PERIODIC is 0 or 1.  Prints one line per run,
// "ok SECONDS" or "fail SECONDS" (CPU time of generate(), process.cpuUsage),
// and stops starting runs once BUDGET CPU seconds are spent.  The model is
// built once and reused, as tilesat's collapser is.  Overlapping samples are
// read with periodic input, as the reference's samples.xml entries used here
// say.
'use strict';

const fs = require('fs');
const path = require('path');
const zlib = require('zlib');

// The reference's tileset XML, as the package's data object (tiles with a
// one-pixel bitmap: the bench never draws).
function readTileset(file) {
  const xml = fs.readFileSync(file, 'utf8');
  const attrs = (tag) => {
    const a = {};
    for (const m of tag.matchAll(/(\w+)="([^"]*)"/g)) a[m[1]] = m[2];
    return a;
  };
  const data = { tilesize: 1, tiles: [], neighbors: [], subsets: {} };
  const tilesPart = (xml.match(/<tiles>([\s\S]*?)<\/tiles>/) || ['', ''])[1];
  for (const m of tilesPart.matchAll(/<tile\b[^>]*>/g)) {
    const a = attrs(m[0]);
    data.tiles.push({
      name: a.name,
      symmetry: a.symmetry || 'X',
      weight: a.weight ? parseFloat(a.weight) : 1,
      bitmap: [0, 0, 0, 255],
    });
  }
  for (const m of xml.matchAll(/<neighbor\b[^>]*>/g)) {
    const a = attrs(m[0]);
    data.neighbors.push({ left: a.left, right: a.right });
  }
  for (const m of xml.matchAll(/<subset\s+name="([^"]*)"\s*>([\s\S]*?)<\/subset>/g))
    data.subsets[m[1]] = [...m[2].matchAll(/<tile\b[^>]*>/g)].map((t) => attrs(t[0]).name);
  return data;
}

// A PNG's RGBA pixels: 8-bit grey, RGB, palette, grey+alpha or RGBA, not
// interlaced (mxgmn's samples), decoded with node's zlib.
function readPng(file) {
  const b = fs.readFileSync(file);
  let pos = 8, idat = [], palette = null, trns = null, w, h, depth, type, interlace;
  while (pos < b.length) {
    const len = b.readUInt32BE(pos), kind = b.toString('ascii', pos + 4, pos + 8);
    const d = b.subarray(pos + 8, pos + 8 + len);
    if (kind === 'IHDR') {
      w = d.readUInt32BE(0); h = d.readUInt32BE(4);
      depth = d[8]; type = d[9]; interlace = d[12];
    } else if (kind === 'PLTE') palette = d;
    else if (kind === 'tRNS') trns = d;
    else if (kind === 'IDAT') idat.push(d);
    pos += 12 + len;
  }
  if (depth !== 8 || interlace) throw new Error(`${file}: only 8-bit, non-interlaced PNGs`);
  const channels = { 0: 1, 2: 3, 3: 1, 4: 2, 6: 4 }[type];
  const raw = zlib.inflateSync(Buffer.concat(idat)), stride = w * channels;
  const px = Buffer.alloc(h * stride);
  for (let y = 0; y < h; y++) {
    const f = raw[y * (stride + 1)], row = raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1));
    for (let x = 0; x < stride; x++) {
      const a = x >= channels ? px[y * stride + x - channels] : 0;
      const up = y ? px[(y - 1) * stride + x] : 0;
      const c = x >= channels && y ? px[(y - 1) * stride + x - channels] : 0;
      let p = a + up - c, v;
      if (f === 0) v = 0;
      else if (f === 1) v = a;
      else if (f === 2) v = up;
      else if (f === 3) v = (a + up) >> 1;
      else v = Math.abs(p - a) <= Math.abs(p - up) && Math.abs(p - a) <= Math.abs(p - c) ? a
        : Math.abs(p - up) <= Math.abs(p - c) ? up : c;
      px[y * stride + x] = (row[x] + v) & 255;
    }
  }
  const rgba = new Uint8Array(w * h * 4);
  for (let i = 0; i < w * h; i++) {
    const s = px.subarray(i * channels, (i + 1) * channels);
    let q;
    if (type === 0) q = [s[0], s[0], s[0], 255];
    else if (type === 2) q = [s[0], s[1], s[2], 255];
    else if (type === 3) q = [palette[3 * s[0]], palette[3 * s[0] + 1], palette[3 * s[0] + 2],
      trns && s[0] < trns.length ? trns[s[0]] : 255];
    else if (type === 4) q = [s[0], s[0], s[0], s[1]];
    else q = [s[0], s[1], s[2], s[3]];
    rgba.set(q, 4 * i);
  }
  return { rgba, w, h };
}

// Seeded runs (mulberry32): run i uses seed i + 1, as tilesat's -n does.
function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function main(argv) {
  const wfc = require(path.join(path.resolve(argv[0]), 'wavefunctioncollapse'));
  let model, rest;
  const size = (s) => s.split('x').map((v) => parseInt(v, 10));
  if (argv[1] === 'simple') {
    const [w, h] = size(argv[4]);
    const subset = argv[3] === '-' ? null : argv[3];
    model = new wfc.SimpleTiledModel(readTileset(argv[2]), subset, w, h, argv[5] === '1');
    rest = argv.slice(6);
  } else {
    const img = readPng(argv[2]);
    const [w, h] = size(argv[5]);
    model = new wfc.OverlappingModel(img.rgba, img.w, img.h, parseInt(argv[3], 10), w, h,
      true, argv[6] === '1', parseInt(argv[4], 10));
    rest = argv.slice(7);
  }
  const runs = parseInt(rest[0], 10), budget = parseFloat(rest[1]);
  let spent = 0;
  for (let i = 0; i < runs && spent < budget; i++) {
    const t0 = process.cpuUsage();
    const ok = model.generate(rng(i + 1));
    const dt = process.cpuUsage(t0);
    const s = (dt.user + dt.system) / 1e6;
    spent += s;
    process.stdout.write(`${ok ? 'ok' : 'fail'} ${s.toFixed(6)}\n`);
  }
}

main(process.argv.slice(2));
