/*
 * tilesat.js: tilesat inside Tiled (the Tiled 1.8 scripting API).
 *
 * Copy or link this file into Tiled's extensions folder
 * (~/.config/tiled/extensions on Linux); `make install` puts it in
 * $(PREFIX)/share/tilesat/tiled/.  The Map menu then has:
 *
 *   tilesat: Check            can the painted cells be completed? (SAT/UNSAT)
 *   tilesat: Complete layer   fill the layer's empty cells, painted ones kept
 *   tilesat: Explain          the clashing painted cells, as objects of an
 *                             object layer "tilesat: why", each with its reason
 *   tilesat: Verify           the broken pairs of a finished layer, as objects
 *                             of "tilesat: broken pairs"
 *   tilesat: Failure heat map where WFC runs on the painted map contradict,
 *                             as objects of "tilesat: heat map"
 *
 * The program it runs is the user's setting, never the map's: the
 * environment variable TILESAT (an absolute path, or a name looked up on
 * PATH), else `tilesat` on PATH.  PATH's absolute folders only: an empty
 * or relative entry (".") is skipped, so a `tilesat` beside a map never
 * runs.  (Tiled 1.8's scripting API has no preference an extension can
 * add or read; Process.getEnv reads Tiled's environment.)  Every command
 * it runs is shown whole in Tiled's Console (console.log: also standard
 * error, headless): "tilesat: running /usr/bin/tilesat check ...".
 *
 * Settings are custom properties of the map, which may come from anyone:
 *   tilesat-rules    the rules file, relative to the map (required; maps
 *                    tilesat writes with --tmx/--tmj have it)
 *   tilesat-layer    the tile layer to read and fill (default: the first)
 *   tilesat-options  more options, e.g. "--connected ." (a completion with
 *                    global constraints runs `check`, else `collapse --guard
 *                    sat`, a WFC run that never fails).  Input options
 *                    only: --backend --border --connected --constraints
 *                    --count --free-tile --guard --heuristic --mask
 *                    --max-memory --method --path --periodic --pin
 *                    --prefer --seed --smallest --topology, a file
 *                    (--constraints, --mask) inside the map's folder (a
 *                    relative path without ".." that stays inside it).
 *                    Anything else (--png, -o, --tmx: a file to write; a
 *                    word that is no option) refuses the whole run:
 *                    "map property tilesat-options: '--png' is not an
 *                    option a map may set ..."
 *   tilesat-runs     runs of the heat map (default 100)
 * A map with the property tilesat-command (earlier versions took the
 * program from it) is refused: "map property tilesat-command refused: a
 * map cannot choose the program to run; ...".
 *
 * The same code is registered as map formats, so Tiled runs it headless:
 *   tiled --export-map tilesat-complete in.tmx out.tmx   the completed map
 *   tiled --export-map tilesat-check in.tmx report.txt   tilesat's answer,
 *                                                       first line SAT/UNSAT
 *   tiled --export-map tilesat-explain in.tmx out.tmx    with "tilesat: why"
 *   tiled --export-map tilesat-verify in.tmx out.tmx     with the broken pairs
 *   tiled --export-map tilesat-heatmap in.tmx out.tmx    with the heat map
 * (there Tiled does not say where the map was: tilesat-rules is relative to
 * the output's folder).  tilesat reads a copy of the map as Tiled holds it,
 * saved beside the map (or the output) and removed after.
 */
(function () {
  "use strict";

  var WHY = "tilesat: why";
  var BROKEN = "tilesat: broken pairs";
  var HEAT = "tilesat: heat map";
  /* options that make a global constraint: `collapse` keeps none of them */
  var GLOBALS = ["--connected", "--path", "--count", "--border",
                 "--constraints"];

  function setting(map, name, fallback) {
    var v = map.property(name);
    return v === undefined || v === null || String(v) === "" ? fallback
                                                             : String(v);
  }

  /* "--connected . --seed 3", or with quotes: "--count 'deep water=4'" */
  function words(text) {
    /* a word: quoted and plain pieces side by side, as a shell joins them
     * (--count='deep water=4' is one word) */
    var out = [], re = /(?:'[^']*'|"[^"]*"|[^\s'"]+)+/g, m;
    while ((m = re.exec(text)) !== null)
      out.push(m[0].replace(/'([^']*)'|"([^"]*)"/g, function (q, a, b) {
        return a !== undefined ? a : b;
      }));
    return out;
  }

  /* The first tile layer's name, depth first through groups, as tilesat
   * reads a map. */
  function firstTileLayer(parent) {
    for (var i = 0; i < parent.layerCount; i++) {
      var l = parent.layerAt(i);
      if (l.isTileLayer)
        return l.name;
      if (l.isGroupLayer) {
        var inner = firstTileLayer(l);
        if (inner !== null)
          return inner;
      }
    }
    return null;
  }

  function findLayer(parent, name) {
    for (var i = 0; i < parent.layerCount; i++) {
      var l = parent.layerAt(i);
      if (l.isTileLayer && l.name === name)
        return l;
      if (l.isGroupLayer) {
        var inner = findLayer(l, name);
        if (inner !== null)
          return inner;
      }
    }
    return null;
  }

  /* ------------------------------------------------- what a map may set */

  /* The options a map's tilesat-options may give: what tilesat reads, never
   * a file it writes (--png, --tmx, --tmj, -o, --qubo-out, --out-dir) nor
   * one that changes the output this extension reads (--format, --explain,
   * --all).  FLAG takes no value, VALUE one, FILE one naming a file that
   * must lie inside the map's folder.  The run list's layer and runs are
   * tilesat-layer and tilesat-runs; --pins-from is the extension's. */
  var FLAG = 0, VALUE = 1, FILE = 2;
  var ALLOWED = {
    "--backend": VALUE, "--border": VALUE, "--connected": VALUE,
    "--constraints": FILE, "--count": VALUE, "--free-tile": VALUE,
    "--guard": VALUE, "--heuristic": VALUE, "--mask": FILE,
    "--max-memory": VALUE, "--method": VALUE, "--path": VALUE,
    "--periodic": FLAG, "--pin": VALUE, "--prefer": VALUE, "--seed": VALUE,
    "--smallest": FLAG, "--topology": VALUE
  };
  var PROGRAM = "it is your setting (the environment variable TILESAT, " +
                "else tilesat on PATH)";

  function refuse(text) { throw new Error(text); }

  function refuseOption(word) {
    refuse("map property tilesat-options: '" + word + "' is not an option " +
           "a map may set (only " + Object.keys(ALLOWED).sort().join(" ") +
           "; never a file to write)");
  }

  /* A file a map names: relative, no "..", and (when it exists) inside
   * `dir` once symbolic links are followed. */
  function checkFile(name, file, dir) {
    var why = null;
    if (file === "" || file === "-")
      why = "it names no file";
    else if (FileInfo.isAbsolutePath(file))
      why = "an absolute path";
    else if (file.split(/[\/\\]/).indexOf("..") >= 0)
      why = "it leaves the map's folder (..)";
    else {
      var full = FileInfo.joinPaths(dir, file);
      var real = File.exists(full) ? FileInfo.canonicalPath(full) : "";
      var home = FileInfo.canonicalPath(dir);
      if (real && real.indexOf(home + "/") !== 0)
        why = "it leads out of the map's folder";
    }
    if (why)
      refuse("map property tilesat-options: " + name + " '" + file +
             "' refused: " + why + "; a file a map names must be inside " +
             "the map's folder");
  }

  /* tilesat-options as tilesat reads them (options.c: a name, or NAME=VALUE,
   * else the next word is the value whatever it is), each checked against
   * ALLOWED; the words and the option names given. */
  function mapOptions(text, dir) {
    var w = words(text), names = {};
    for (var i = 0; i < w.length; i++) {
      var eq = w[i].indexOf("="), name = eq < 0 ? w[i] : w[i].slice(0, eq);
      if (w[i] === "--" || name.charAt(0) !== "-" || w[i] === "-" ||
          !Object.prototype.hasOwnProperty.call(ALLOWED, name))
        refuseOption(w[i]);
      var kind = ALLOWED[name], value = null;
      if (kind === FLAG && eq >= 0)
        refuseOption(w[i]);
      if (kind !== FLAG) {
        if (eq < 0 && i + 1 >= w.length)
          refuse("map property tilesat-options: " + name + " needs a value");
        value = eq >= 0 ? w[i].slice(eq + 1) : w[++i];
      }
      if (kind === FILE)
        checkFile(name, value, dir);
      names[name] = true;
    }
    return {words: w, names: names};
  }

  /* A folder's executable file `name`, or null. */
  function executableIn(dir, name) {
    var all = File.directoryEntries(dir, File.Files | File.Executable,
                                    File.NoSort);
    return all.indexOf(name) >= 0 ? FileInfo.joinPaths(dir, name) : null;
  }

  /* The program to run, as an absolute path: TILESAT, else tilesat, looked
   * up in PATH's absolute folders (never the map's, never "."). */
  function program() {
    var env = new Process();
    var chosen = env.getEnv("TILESAT"), path = env.getEnv("PATH");
    var windows = tiled.platform === "windows";
    if (chosen && FileInfo.isAbsolutePath(chosen)) {
      var found = executableIn(FileInfo.path(chosen), FileInfo.fileName(chosen));
      if (!found)
        refuse("TILESAT='" + chosen + "' is not an executable file");
      return found;
    }
    if (chosen && /[\/\\]/.test(chosen))
      refuse("TILESAT='" + chosen + "' must be an absolute path or a " +
             "program name on PATH");
    var name = chosen || "tilesat";
    if (windows && !/\.exe$/i.test(name))
      name += ".exe";
    var dirs = (path || "").split(windows ? ";" : ":");
    for (var i = 0; i < dirs.length; i++) {
      var at = dirs[i] && FileInfo.isAbsolutePath(dirs[i])
                   ? executableIn(dirs[i], name) : null;
      if (at)
        return at;
    }
    return refuse((chosen ? "TILESAT='" + chosen + "': " : "") + name +
                  " is not on PATH: install tilesat, or set the environment " +
                  "variable TILESAT to its absolute path");
  }

  /* The settings, paths relative to `dir` (the map's folder).  Throws
   * before anything is written or run when the map asks for more than it
   * may. */
  function settings(map, dir) {
    if (map.property("tilesat-command") !== undefined)
      refuse("map property tilesat-command refused: a map cannot choose " +
             "the program to run; " + PROGRAM + ". Remove the property to " +
             "go on");
    var rules = setting(map, "tilesat-rules", "");
    if (!rules)
      throw new Error("set the map property tilesat-rules to the rules " +
                      "file (relative to the map)");
    var layer = setting(map, "tilesat-layer", firstTileLayer(map));
    if (layer === null)
      throw new Error("the map has no tile layer");
    var opts = mapOptions(setting(map, "tilesat-options", ""), dir);
    var path = FileInfo.isAbsolutePath(rules) ? rules
                                              : FileInfo.joinPaths(dir, rules);
    return {
      dir: dir,
      /* joinPaths(".", "--png=x") is "--png=x": tilesat would read an option */
      rules: path.charAt(0) === "-" ? "./" + path : path,
      layer: layer,
      options: opts.words,
      given: opts.names,
      runs: setting(map, "tilesat-runs", "100"),
      command: program()
    };
  }

  /* A word as a shell would need it, for the console. */
  function shellWord(w) {
    return /^[\w@%+=:,.\/-]+$/.test(w) ? w
                                       : "'" + w.replace(/'/g, "'\\''") + "'";
  }

  /* Run tilesat; its answer {code, out, err}.  Exit 10 and 20 are answers
   * (SAT, UNSAT), 0 a report; anything else is an error, said.  The
   * command line goes to Tiled's console first. */
  function run(s, args) {
    console.log("tilesat: running " +
                [s.command].concat(args).map(shellWord).join(" ") +
                " (in " + s.dir + ")");
    var p = new Process();
    p.workingDirectory = s.dir;
    var code = p.exec(s.command, args, false);
    var out = p.readStdOut(), err = p.readStdErr();
    p.close();
    if (code < 0)
      throw new Error("cannot run '" + s.command + "' (" + PROGRAM + ")");
    if (code !== 0 && code !== 10 && code !== 20)
      throw new Error((err.trim() || s.command + ": exit " + code));
    return {code: code, out: out, err: err};
  }

  /* The map as Tiled holds it, saved as a .tmx in `dir` (so its relative
   * paths hold) for tilesat to read. */
  function saveCopy(map, dir) {
    var file = FileInfo.joinPaths(dir, ".tilesat-" + Date.now() + "-" +
                                       Math.floor(Math.random() * 1e9) +
                                       ".tmx");
    var err = tiled.mapFormat("tmx").write(map, file);
    if (err)
      throw new Error("cannot write " + file + ": " + err);
    return file;
  }

  function drop(file) {
    if (File.exists(file))
      File.remove(file);
  }

  function pins(s, file) { return ["--pins-from", file, "--layer", s.layer]; }

  function hasGlobals(s) {
    return GLOBALS.some(function (g) { return s.given[g]; });
  }

  /* ------------------------------------------------------------ commands */

  function check(s, file) {
    return run(s, ["check", s.rules].concat(pins(s, file), s.options));
  }

  /* The completed map written to `out` (a .tmx): the painted map whole,
   * its layer filled.  Throws when no completion exists. */
  function complete(s, file, out) {
    /* a --guard of the map's own replaces sat */
    var args = hasGlobals(s)   ? ["check", s.rules]
               : s.given["--guard"] ? ["collapse", s.rules]
                                  : ["collapse", s.rules, "--guard", "sat"];
    var r = run(s, args.concat(pins(s, file), ["--tmx", out], s.options));
    if (r.code !== 10)
      throw new Error("the painted cells of layer '" + s.layer + "' " +
                      "cannot be completed (UNSAT): run tilesat: Explain");
    return r;
  }

  /* "(3,4)" -> [3, 4] for every cell a line names. */
  function cellsOf(line) {
    var out = [], re = /\((\d+),(\d+)\)/g, m;
    while ((m = re.exec(line)) !== null)
      out.push([Number(m[1]), Number(m[2])]);
    return out;
  }

  /* Why the painted cells clash: marks {cells, text}, one a constraint of
   * explain's minimal set ("[2] (0,0) and its east neighbour (0,1) hold an
   * allowed pair"); [] and the answer when a map exists. */
  function explain(s, file) {
    var r = run(s, ["explain", s.rules].concat(pins(s, file), s.options));
    var marks = [];
    var lines = r.out.split("\n");
    for (var i = 0; i < lines.length; i++) {
      if (/^Why/.test(lines[i]))
        break; /* the constraints come first, then the propagation */
      var m = /^\s+\[(\d+)\]\s+(.*)$/.exec(lines[i]);
      if (m)
        marks.push({cells: cellsOf(m[2]), text: "[" + m[1] + "] " + m[2]});
    }
    return {result: r, marks: marks};
  }

  /* The broken pairs of a finished layer: "(0,0) "a" and its east
   * neighbour (0,1) "c": not an allowed pair". */
  function verify(s, file) {
    var r = run(s, ["verify", s.rules, file, "--layer", s.layer]
                       .concat(s.options));
    var marks = [];
    r.out.split("\n").forEach(function (line) {
      var cells = cellsOf(line);
      if (cells.length >= 2 && /^\(/.test(line))
        marks.push({cells: cells.slice(0, 2), text: line});
    });
    return {result: r, marks: marks};
  }

  /* Where WFC runs on the painted map contradict: a mark per cell. */
  function heatmap(s, file) {
    var r = run(s, ["collapse", s.rules].concat(pins(s, file),
                ["-n", s.runs, "--format", "json"], s.options));
    var doc = JSON.parse(r.out), marks = [];
    (doc.contradiction_cells || []).forEach(function (c) {
      var share = (100 * c.count / doc.runs).toFixed(1);
      marks.push({cells: [c.cell], count: c.count,
                  text: c.count + " of " + doc.runs + " runs (" + share +
                        "%) contradict here"});
    });
    return {result: r, marks: marks, doc: doc};
  }

  /* ------------------------------------------------------- marks on maps */

  function cellRect(map, cell) {
    var p = map.tileToPixel(cell[1], cell[0]);
    return {x: p.x, y: p.y, w: map.tileWidth, h: map.tileHeight};
  }

  /* An object layer `name` (replacing one of that name) with an object per
   * mark, a rectangle around its cells, named by its text. */
  function markLayer(map, name, marks, colour) {
    for (var i = map.layerCount - 1; i >= 0; i--)
      if (map.layerAt(i).isObjectLayer && map.layerAt(i).name === name)
        map.removeLayerAt(i);
    var group = new ObjectGroup(name);
    group.color = colour;
    marks.forEach(function (mark) {
      if (!mark.cells.length)
        return;
      var x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
      mark.cells.forEach(function (c) {
        var r = cellRect(map, c);
        x0 = Math.min(x0, r.x);
        y0 = Math.min(y0, r.y);
        x1 = Math.max(x1, r.x + r.w);
        y1 = Math.max(y1, r.y + r.h);
      });
      var o = new MapObject(mark.text);
      o.x = x0;
      o.y = y0;
      o.width = x1 - x0;
      o.height = y1 - y0;
      o.setProperty("tilesat", mark.text);
      group.addObject(o);
    });
    map.addLayer(group);
    return group;
  }

  /* ------------------------------------------------- headless map formats */

  /* A format that saves `map`, runs `what` on the copy and writes fileName;
   * an error is Tiled's error message. */
  function format(name, extension, what) {
    return {
      name: name,
      extension: extension,
      write: function (map, fileName) {
        var out = FileInfo.path(fileName);
        var s, copy = null;
        try {
          s = settings(map, map.fileName ? FileInfo.path(map.fileName) : out);
          copy = saveCopy(map, out);
          what(s, map, copy, fileName);
          return undefined;
        } catch (e) {
          var why = "tilesat: " + (e.message || String(e));
          /* Tiled 1.8's --export-map says only "Failed to export": the
           * reason on the console too */
          console.warn(why);
          return why;
        } finally {
          if (copy)
            drop(copy);
        }
      }
    };
  }

  function writeText(fileName, text) {
    var f = new TextFile(fileName, TextFile.WriteOnly);
    f.write(text);
    f.commit();
  }

  /* The map Tiled read, with an object layer of marks, to fileName. */
  function writeMarked(copy, fileName, name, marks, colour) {
    var tmx = tiled.mapFormat("tmx");
    var map = tmx.read(copy);
    markLayer(map, name, marks, colour);
    var err = tmx.write(map, fileName);
    if (err)
      throw new Error(err);
  }

  tiled.registerMapFormat("tilesat-complete",
      format("tilesat: completed map", "tmx", function (s, map, copy, out) {
        complete(s, copy, out);
      }));
  tiled.registerMapFormat("tilesat-check",
      format("tilesat: check report", "txt", function (s, map, copy, out) {
        writeText(out, check(s, copy).out);
      }));
  tiled.registerMapFormat("tilesat-explain",
      format("tilesat: why", "tmx", function (s, map, copy, out) {
        writeMarked(copy, out, WHY, explain(s, copy).marks, "#ff0000");
      }));
  tiled.registerMapFormat("tilesat-verify",
      format("tilesat: broken pairs", "tmx", function (s, map, copy, out) {
        writeMarked(copy, out, BROKEN, verify(s, copy).marks, "#ff8000");
      }));
  tiled.registerMapFormat("tilesat-heatmap",
      format("tilesat: failure heat map", "tmx",
             function (s, map, copy, out) {
               writeMarked(copy, out, HEAT, heatmap(s, copy).marks,
                           "#ff00ff");
             }));

  /* ----------------------------------------------------- the Map menu */

  /* The open map, its settings and a saved copy, for an action. */
  function withMap(title, body) {
    var map = tiled.activeAsset;
    if (!map || !map.isTileMap) {
      tiled.alert("Open a map first.", title);
      return;
    }
    if (!map.fileName) {
      tiled.alert("Save the map first: tilesat-rules is relative to it.",
                  title);
      return;
    }
    var copy = null;
    try {
      var s = settings(map, FileInfo.path(map.fileName));
      copy = saveCopy(map, s.dir);
      body(map, s, copy);
    } catch (e) {
      tiled.alert(e.message || String(e), title);
    } finally {
      if (copy)
        drop(copy);
    }
  }

  function action(id, text, body) {
    var a = tiled.registerAction(id, function () { withMap(text, body); });
    a.text = text;
    return id;
  }

  var ids = [
    action("TilesatCheck", "tilesat: Check", function (map, s, copy) {
      var r = check(s, copy);
      tiled.alert(r.code === 10
                      ? "SAT: the painted cells of layer '" + s.layer +
                            "' can be completed."
                      : "UNSAT: no completion keeps the painted cells of " +
                            "layer '" + s.layer + "' (tilesat: Explain " +
                            "says why).",
                  "tilesat: Check");
    }),
    action("TilesatComplete", "tilesat: Complete layer",
           function (map, s, copy) {
      var out = copy.replace(/\.tmx$/, "-done.tmx");
      try {
        complete(s, copy, out);
        var done = tiled.mapFormat("tmx").read(out);
        var from = findLayer(done, s.layer), to = findLayer(map, s.layer);
        map.macro("tilesat: Complete layer", function () {
          var edit = to.edit();
          for (var y = 0; y < to.height; y++)
            for (var x = 0; x < to.width; x++) {
              var tile = from.tileAt(x, y);
              if (!tile)
                continue;
              var ts = null;
              map.tilesets.forEach(function (t) {
                if (t.name === tile.tileset.name)
                  ts = t;
              });
              var c = from.cellAt(x, y);
              var flags = (c.flippedHorizontally ? 1 : 0) |
                          (c.flippedVertically ? 2 : 0) |
                          (c.flippedAntiDiagonally ? 4 : 0) |
                          (c.rotatedHexagonal120 ? 8 : 0);
              edit.setTile(x, y, ts ? ts.tile(tile.id) : tile, flags);
            }
          edit.apply();
        });
      } finally {
        drop(out);
      }
    }),
    action("TilesatExplain", "tilesat: Explain", function (map, s, copy) {
      var e = explain(s, copy);
      if (e.result.code !== 20) {
        tiled.alert(e.result.out.trim(), "tilesat: Explain");
        return;
      }
      map.macro("tilesat: Explain", function () {
        markLayer(map, WHY, e.marks, "#ff0000");
      });
    }),
    action("TilesatVerify", "tilesat: Verify", function (map, s, copy) {
      var v = verify(s, copy);
      map.macro("tilesat: Verify", function () {
        markLayer(map, BROKEN, v.marks, "#ff8000");
      });
      if (v.result.code === 10)
        tiled.alert("VALID: layer '" + s.layer + "' keeps the rules.",
                    "tilesat: Verify");
    }),
    action("TilesatHeatMap", "tilesat: Failure heat map",
           function (map, s, copy) {
      var h = heatmap(s, copy);
      map.macro("tilesat: Failure heat map", function () {
        markLayer(map, HEAT, h.marks, "#ff00ff");
      });
      tiled.alert(h.doc.contradictions + " of " + h.doc.runs +
                      " WFC runs contradicted.",
                  "tilesat: Failure heat map");
    })
  ];

  tiled.extendMenu("Map", [{separator: true}].concat(ids.map(function (id) {
    return {action: id};
  })));
})();
