#!/bin/sh
# Regenerate docs/tiled.png: Tiled (Debian's tiled 1.8.2) showing a Castle
# level whose "ground" layer the tilesat extension (tools/tiled/tilesat.js)
# completed, its "decor" layer and "spawns" objects kept.  The completion
# runs headless (tiled --export-map tilesat-complete, as the tests run it);
# the editor then opens the result under Xvfb and the screen is saved.
#
#   tools/screenshot-tiled.sh [TILESAT] [OUT]   (build/tilesat, docs/tiled.png)
# run from the top of the repository; about 20 s.
#
# Only for making the picture, not for the tests: xvfb (Xvfb), x11-apps
# (xwd) and netpbm (xwdtopnm, pnmcrop, pnmtopng), e.g.
#   apt-get install --no-install-recommends xvfb x11-apps netpbm
set -eu
B=${1:-build/tilesat}
OUT=${2:-docs/tiled.png}
for tool in tiled Xvfb xwd xwdtopnm pnmcrop pnmtopng; do
  command -v "$tool" >/dev/null 2>&1 || {
    echo "screenshot-tiled: $tool is missing (see the comment at the top)" >&2
    exit 1
  }
done
BIN=$(cd "$(dirname "$B")" && pwd)
ROOT=$(pwd)
T=$(mktemp -d)
XPID=""
TPID=""
cleanup() {
  [ -n "$TPID" ] && kill "$TPID" 2>/dev/null
  [ -n "$XPID" ] && kill "$XPID" 2>/dev/null
  rm -rf "$T"
}
trap cleanup EXIT INT TERM

# a HOME of its own: the extension, and a session that opens the map at 2x
export HOME="$T/home" XDG_RUNTIME_DIR="$T/home"
unset XDG_CONFIG_HOME
mkdir -p "$HOME/.config/tiled/extensions" "$T/lvl"
chmod 700 "$HOME"
cp tools/tiled/tilesat.js "$HOME/.config/tiled/extensions/"

# the rules and the tileset to paint with: Castle, with its tile images
"$B" import-tileset "$ROOT/tests/data/wfc/tilesets/Castle.xml" \
  -o "$T/lvl/castle.rules" 2>/dev/null
"$B" export-tileset "$T/lvl/castle.rules" -o "$T/lvl/castle.tsx"
# the tileset's tile size (its pictures, drawn at least 8 pixels a side)
TW=$(sed -n 's/.* tilewidth="\([0-9]*\)".*/\1/p' "$T/lvl/castle.tsx" | head -n 1)
# gid of a tile: its place among the rules' tiles, from 1
gid() { grep '^tile ' "$T/lvl/castle.rules" | grep -n "\"$1\"" | cut -d: -f1; }

W=14
H=9
cells() { # the ground layer: painted cells, the rest empty (0)
  r=0
  while [ $r -lt $H ]; do
    c=0
    while [ $c -lt $W ]; do
      v=0
      case "$r,$c" in
      2,3) v=$(gid "tower 0") ;;
      2,10) v=$(gid "tower 1") ;;
      6,7) v=$(gid "bridge 0") ;;
      5,1) v=$(gid "river 0") ;;
      esac
      printf '%s' "$v"
      [ $r -eq $((H - 1)) ] && [ $c -eq $((W - 1)) ] || printf ','
      c=$((c + 1))
    done
    printf '\n'
    r=$((r + 1))
  done
}
empty() { cells | sed 's/[0-9][0-9]*/0/g'; }
cat >"$T/lvl/painted.tmx" <<EOF
<?xml version="1.0" encoding="UTF-8"?>
<map version="1.8" tiledversion="1.8.2" orientation="orthogonal" renderorder="right-down" width="$W" height="$H" tilewidth="$TW" tileheight="$TW" infinite="0" nextlayerid="4" nextobjectid="3">
 <properties>
  <property name="tilesat-rules" value="castle.rules"/>
 </properties>
 <tileset firstgid="1" source="castle.tsx"/>
 <layer id="1" name="ground" width="$W" height="$H">
  <data encoding="csv">
$(cells)
</data>
 </layer>
 <layer id="2" name="decor" width="$W" height="$H">
  <data encoding="csv">
$(empty)
</data>
 </layer>
 <objectgroup id="3" name="spawns">
  <object id="1" name="start" x="$((2 * TW))" y="$((2 * TW))" width="$((3 * TW))" height="$((2 * TW))"/>
  <object id="2" name="exit" x="$((11 * TW + TW / 2))" y="$((6 * TW + TW / 2))">
   <point/>
  </object>
 </objectgroup>
</map>
EOF

# the extension completes the ground layer, headless
(cd "$T/lvl" && PATH="$BIN:$PATH" QT_QPA_PLATFORM=offscreen \
  timeout 120 tiled --export-map tilesat-complete painted.tmx level.tmx)
v=$("$B" verify "$T/lvl/castle.rules" "$T/lvl/level.tmx" --layer ground) || true
[ "$v" = VALID ] || { echo "screenshot-tiled: the completed map: $v" >&2; exit 1; }

MAP="$T/lvl/level.tmx"
cat >"$HOME/.config/tiled/default.tiled-session" <<EOF
{
  "activeFile": "$MAP",
  "openFiles": ["$MAP"],
  "recentFiles": ["$MAP"],
  "fileStates": {
    "$MAP": {"scale": 2, "selectedLayer": 0,
             "viewCenter": {"x": $((W * TW / 2)), "y": $((H * TW / 2))}}
  }
}
EOF

mkdir -p "$HOME/.config/mapeditor.org"
cat >"$HOME/.config/mapeditor.org/tiled.conf" <<EOF
[Project]
LastSession=$HOME/.config/tiled/default.tiled-session
[Startup]
RestorePreviousSession=true
EOF

# the editor on a virtual screen; the screen saved once the map is drawn
D=:$((90 + $$ % 100))
Xvfb "$D" -screen 0 1280x800x24 -nolisten tcp >/dev/null 2>&1 &
XPID=$!
sleep 2
(cd "$T/lvl" && DISPLAY=$D PATH="$BIN:$PATH" exec tiled) \
  >/dev/null 2>&1 &
TPID=$!
sleep "${TILED_WAIT:-10}"
mkdir -p "$(dirname "$OUT")"
xwd -root -silent -display "$D" | xwdtopnm 2>/dev/null | pnmcrop -black 2>/dev/null |
  pnmtopng -compression 9 >"$OUT"
echo "screenshot-tiled: wrote $OUT ($(wc -c <"$OUT") bytes)"
