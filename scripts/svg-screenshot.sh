#!/usr/bin/env bash
# Render an SVG with headless Chromium and check that the screenshot is a picture,
# not a blank page.
#
#   scripts/svg-screenshot.sh FILE.svg [OUT.png]
#   scripts/svg-screenshot.sh --expr 'LAYOUT-EXPR' [OUT.png]   # draws it with kute first
#
# Needs chromium (Debian/Ubuntu: apt-get install chromium), or python3's cairosvg where no
# browser is installed, and python3. The PNG is
# decoded with Pillow when it is installed, else with a small pure-Python decoder.
# Exit status: 0 when the screenshot has at least 3 colours and no colour covers
# more than 99% of it; 1 when it looks blank; 2 on a usage or setup problem.
# Set CHROMIUM to choose the browser binary, KUTE to choose the kute binary.
set -euo pipefail

usage() {
    sed -n '2,13p' "$0" | sed 's/^# \{0,1\}//' >&2
    exit 2
}

[[ $# -ge 1 ]] || usage
here=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

if [[ $1 == --expr ]]; then
    [[ $# -ge 2 ]] || usage
    kute=${KUTE:-}
    if [[ -z $kute ]]; then
        kute=$here/target/release/kute
        [[ -x $kute ]] || (cd "$here" && cargo build --release --quiet -p kute-cli)
    fi
    svg=$tmp/layout.svg
    "$kute" svg "$2" -o "$svg"
    shift 2
else
    svg=$1
    shift
fi
[[ -f $svg ]] || { echo "no such file: $svg" >&2; exit 2; }
png=${1:-${svg%.svg}.png}
[[ $png == "$svg" ]] && png=$svg.png

browser=${CHROMIUM:-}
if [[ -z $browser ]]; then
    for b in chromium chromium-browser google-chrome google-chrome-stable; do
        if command -v "$b" >/dev/null; then browser=$b; break; fi
    done
fi
if [[ -z $browser ]]; then
    # no browser: render with cairosvg (pip install cairosvg) where it is installed
    python3 -c 'import cairosvg' 2>/dev/null || {
        echo "chromium not found (apt-get install chromium, or set CHROMIUM), nor python3's cairosvg" >&2
        exit 2
    }
    echo "chromium not found: rendering with cairosvg instead" >&2
fi

# The window is the picture's own size (from the <svg width= height=>), capped.
read -r w h < <(python3 - "$svg" <<'EOF'
import re, sys
head = open(sys.argv[1], encoding="utf-8").read(4096)
tag = re.search(r"<svg\b[^>]*>", head)
box = tag and re.search(r'viewBox="[-0-9.]+ [-0-9.]+ ([0-9.]+) ([0-9.]+)"', tag.group(0))
def dim(name, default, i):
    m = tag and re.search(r'\b%s="([0-9.]+)(%%?)' % name, tag.group(0))
    if m and not m.group(2):
        return min(int(float(m.group(1))) + 1, 8000)
    # a size in percent (CuTe's print_svg): the viewBox's, at least 800 pixels wide
    if box:
        scale = max(1.0, 800 / float(box.group(1)))
        return min(int(float(box.group(i)) * scale) + 1, 8000)
    return default
print(dim("width", 1280, 1), dim("height", 1024, 2))
EOF
)

abs=$(cd "$(dirname "$svg")" && pwd)/$(basename "$svg")
if [[ -n $browser ]]; then
    # Chromium needs --no-sandbox when run as root (containers); it is harmless otherwise.
    "$browser" --headless --no-sandbox --disable-gpu --hide-scrollbars --force-device-scale-factor=1 \
        --user-data-dir="$tmp/profile" --window-size="$w,$h" --screenshot="$png" "file://$abs" \
        >"$tmp/chromium.log" 2>&1 || { cat "$tmp/chromium.log" >&2; exit 2; }
    [[ -s $png ]] || { echo "chromium wrote no screenshot" >&2; cat "$tmp/chromium.log" >&2; exit 2; }
else
    python3 -c 'import sys, cairosvg; cairosvg.svg2png(url=sys.argv[1], write_to=sys.argv[2], output_width=int(sys.argv[3]))' \
        "$abs" "$png" "$w" || exit 2
fi

python3 - "$png" <<'EOF'
import struct, sys, zlib
from collections import Counter

def pixels_pillow(path):
    from PIL import Image
    im = Image.open(path).convert("RGB")
    return im.size, list(im.getdata())

def pixels_plain(path):
    """Decode an 8-bit RGB/RGBA/grey PNG (what Chromium writes) without Pillow."""
    data = open(path, "rb").read()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    pos, idat = 8, b""
    while pos < len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        if kind == b"IHDR":
            w, h, depth, ctype, _, _, interlace = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
        pos += 12 + n
    assert depth == 8 and interlace == 0 and ctype in (0, 2, 4, 6), "unsupported PNG"
    bpp = {0: 1, 2: 3, 4: 2, 6: 4}[ctype]
    raw, stride = zlib.decompress(idat), w * bpp
    prev, out, i = bytearray(stride), [], 0
    for _ in range(h):
        f, line = raw[i], bytearray(raw[i + 1:i + 1 + stride])
        i += 1 + stride
        for x in range(stride):
            a = line[x - bpp] if x >= bpp else 0
            b = prev[x]
            c = prev[x - bpp] if x >= bpp else 0
            if f == 1: line[x] = (line[x] + a) & 255
            elif f == 2: line[x] = (line[x] + b) & 255
            elif f == 3: line[x] = (line[x] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[x] = (line[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        for x in range(0, stride, bpp):
            px = line[x:x + bpp]
            out.append((px[0],) * 3 if ctype in (0, 4) else tuple(px[:3]))
        prev = line
    return (w, h), out

path = sys.argv[1]
try:
    size, px = pixels_pillow(path)
except ImportError:
    size, px = pixels_plain(path)
counts = Counter(px)
top, n = counts.most_common(1)[0]
share = n / len(px)
print(f"{path}: {size[0]}x{size[1]}, {len(counts)} colours, commonest {top} covers {share:.1%}")
if len(counts) < 3 or share > 0.99:
    print("the screenshot looks blank", file=sys.stderr)
    sys.exit(1)
print("ok: the picture rendered")
EOF
